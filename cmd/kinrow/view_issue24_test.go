package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/stats"
)

// httpGetHost sends GET url with the given Host header.
func httpGetHost(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	// A stream served by mistake (/api/events) must not hang the test.
	r, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// kinrow view refuses requests for another host (DNS rebinding) with 421,
// and lists the good games of a file with a bad line in the middle, the
// bad line among the problems.
func TestViewRefusesForeignHostAndShowsGoodGames(t *testing.T) {
	data, err := os.ReadFile(recordsFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.TrimRight(data, "\n"), []byte("\n"))
	var file []byte
	for i, l := range lines { // 5 games, a bad line after the 3rd
		file = append(file, bytes.TrimRight(l, "\n")...)
		file = append(file, '\n')
		if i == 2 {
			file = append(file, "{\"rules\":\"mnk:3x3x3\",\"moves\":\"nope\"}\n"...)
		}
	}
	path := filepath.Join(t.TempDir(), "games.jsonl")
	os.WriteFile(path, file, 0o644)
	base, stderr := startView(t, "--allow-unsigned", path) // the test data predates signatures
	port := base[strings.LastIndex(base, ":")+1:]
	code, body := httpGet(t, base+"/api/games")
	var l struct {
		Total    int
		Problems []string
	}
	json.Unmarshal([]byte(body), &l)
	if code != 200 || l.Total != 5 || len(l.Problems) != 1 || !strings.HasPrefix(l.Problems[0], path+":4: ") {
		t.Errorf("GET /api/games: %d, %d games, problems %q", code, l.Total, l.Problems)
	}
	for _, host := range []string{"attacker.example", "attacker.example:" + port} {
		for _, p := range []string{"/", "/api/games", "/api/games/1"} {
			if code, body := httpGetHost(t, base+p, host); code != http.StatusMisdirectedRequest || !strings.Contains(body, "127.0.0.1:"+port) {
				t.Errorf("GET %s with Host %s: %d %q, want 421", p, host, code, body)
			}
		}
	}
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port} {
		if code, _ := httpGetHost(t, base+"/api/games", host); code != 200 {
			t.Errorf("GET /api/games with Host %s: %d, want 200", host, code)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if log := stderr.String(); !strings.Contains(log, path+":4: ") || !strings.Contains(log, "attacker.example") {
		t.Errorf("log %q: want the bad line and the refused host", log)
	}
}

// kinrow match --view: the live viewer refuses another host too, and tells
// its pages when the match has ended, every game played or the SPRT
// decided.
func TestMatchViewEndAndHost(t *testing.T) {
	for _, sprt := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		var out strings.Builder
		cfg := match.Config{}
		if sprt {
			cfg.SPRT = &stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
		}
		if err := watchMatch(ctx, "127.0.0.1:0", &cfg, hclog.NewNullLogger(), &out); err != nil {
			t.Fatal(err)
		}
		url := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(out.String()), "kinrow: watch the match at "), "/")
		port := url[strings.LastIndex(url, ":")+1:]
		if code, body := httpGetHost(t, url+"/api/events", "attacker.example:"+port); code != http.StatusMisdirectedRequest {
			t.Errorf("GET /api/events with Host attacker.example: %d %q, want 421", code, body)
		}
		// A stream that never ends the match fails the test, not hangs it.
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(url + "/api/events")
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(resp.Body)
		readEvent := func() (string, string) {
			var kind, data string
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					t.Fatalf("event stream: %v", err)
				}
				switch {
				case strings.HasPrefix(line, "event: "):
					kind = strings.TrimSpace(strings.TrimPrefix(line, "event: "))
				case strings.HasPrefix(line, "data: "):
					data = strings.TrimSpace(strings.TrimPrefix(line, "data: "))
				case line == "\n" && kind != "":
					return kind, data
				}
			}
		}
		readEvent() // the snapshot
		c4 := engine.Connect4()
		for g := 1; g <= 2; g++ {
			rec := record.New(c4, record.Players{X: "a", O: "b"}, time.Now())
			rec.Round, rec.Game = 1, g
			cfg.OnGameStart(rec)
			for i, m := range []engine.Move{0, 1, 0, 1, 0, 1, 0} {
				rec.Add(c4, m, engine.Color(i%2), time.Millisecond)
			}
			rec.Finish(engine.XWins, record.ReasonWin, "", "", time.Now())
			cfg.OnGame(g, 2, rec)
		}
		if sprt {
			cfg.OnPair(3.1, stats.AcceptH1)
		}
		var kinds []string
		var end string
		for end == "" {
			kind, data := readEvent()
			kinds = append(kinds, kind)
			if kind == "matchend" {
				end = data
			}
		}
		want := `{"message":"all 2 games played"}`
		if sprt {
			want = `{"message":"SPRT: H1 accepted"}`
		}
		if end != want || kinds[len(kinds)-2] != "summary" {
			t.Errorf("SPRT %v: events %v, matchend %s, want the summary then %s", sprt, kinds, end, want)
		}
		resp.Body.Close()
		cancel()
	}
}
