package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// manyRecords returns n good record lines (the test file's games, each
// with its own round) with extra lines put after the given line numbers.
func manyRecords(t *testing.T, n int, extra map[int]string) []byte {
	t.Helper()
	recs := loadRecs(t, records)
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		rec := *recs[i%len(recs)]
		rec.Round, rec.Game = i+1, 1
		line, err := json.Marshal(&rec)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
		if x, ok := extra[i+1]; ok {
			b.WriteString(x)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// One bad line in the middle of a records file (not a torn last line)
// hides no game: the 300 good ones are listed, the bad line is a problem
// naming file:line and why.
func TestBadLineInTheMiddleHidesNoGame(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/games.jsonl"
	data := manyRecords(t, 300, map[int]string{150: `{"rules":"mnk:3x3x3","moves":[{"move":"zz9","color":"x","ms":1}],"result":"","reason":""}`})
	// A torn last line still follows its own policy.
	data = append(data, data[:40]...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, nil, path)
	code, _, body := get(t, ts.URL+"/api/games")
	var l gameList
	if err := json.Unmarshal([]byte(body), &l); err != nil || code != 200 {
		t.Fatalf("GET /api/games: %d %v %s", code, err, body)
	}
	if l.Total != 300 || len(l.Games) != 300 {
		t.Errorf("%d games listed (total %d), want the 300 good ones", len(l.Games), l.Total)
	}
	probs := strings.Join(l.Problems, "\n")
	for _, want := range []string{path + ":151: ", "zz9", path + ":302: torn last line"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems %q lack %q", probs, want)
		}
	}
	if len(l.Problems) != 2 {
		t.Errorf("problems %q, want the bad line and the torn one", l.Problems)
	}
	// Games keep their file order around the bad line.
	code, _, body = get(t, ts.URL+"/api/games/151")
	if code != 200 || !strings.Contains(body, `"round":151`) {
		t.Errorf("GET /api/games/151: %d %.200s", code, body)
	}
}

// Many bad lines are listed up to a bound, and counted past it; a file of
// nothing but bad lines (not records) is one problem, as before.
func TestManyBadLinesAreBounded(t *testing.T) {
	extra := map[int]string{}
	for i := 1; i <= 30; i++ {
		extra[i] = fmt.Sprintf("garbage %d", i)
	}
	path := t.TempDir() + "/games.jsonl"
	os.WriteFile(path, manyRecords(t, 40, extra), 0o644)
	ts := newTestServer(t, nil, path)
	_, _, body := get(t, ts.URL+"/api/games")
	var l gameList
	json.Unmarshal([]byte(body), &l)
	if l.Total != 40 {
		t.Errorf("%d games, want 40", l.Total)
	}
	if len(l.Problems) != maxBadLines+1 || !strings.Contains(l.Problems[maxBadLines], "10 more bad lines") {
		t.Errorf("problems %q", l.Problems)
	}
}

// getHost sends GET url with the given Host header.
func getHost(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	// A stream served by mistake (/api/events) must not hang the test.
	client := &http.Client{Timeout: 5 * time.Second}
	r, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// DNS rebinding: a request whose Host is not the viewer's address (nor
// localhost) is refused with 421 and a reason, the page, the API and the
// live event stream alike; the viewer's own names are served.
func TestForeignHostIsRefused(t *testing.T) {
	hub := NewHub()
	ts := newTestServer(t, hub, records)
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	for _, path := range []string{"/", "/static/app.js", "/api/games", "/api/games/1", "/api/games/1/svg", "/api/events", "/api/live/1/svg"} {
		for _, host := range []string{"attacker.example", "attacker.example:" + port, "localhost.attacker.example:" + port, "127.0.0.1.nip.io:" + port, "127.0.0.1:1", "localhost:1"} {
			code, body := getHost(t, ts.URL+path, host)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "Host") || !strings.Contains(body, "127.0.0.1:"+port) {
				t.Errorf("GET %s with Host %s: %d %.100q, want 421 saying why", path, host, code, body)
			}
		}
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "localhost", "[::1]:" + port, "127.0.0.2:" + port} {
		if code, body := getHost(t, ts.URL+"/api/games", host); code != 200 {
			t.Errorf("GET /api/games with Host %s: %d %.100q, want 200", host, code, body)
		}
	}
	// The event stream is served to the viewer's own address.
	req, _ := http.NewRequest("GET", ts.URL+"/api/events", nil)
	req.Host = "localhost:" + port
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ev := next(t, readEvents(resp.Body)); resp.StatusCode != 200 || ev.kind != "snapshot" {
		t.Errorf("GET /api/events with Host localhost: %d, first event %q", resp.StatusCode, ev.kind)
	}
}

// A viewer on a non-loopback address answers to that address and to the
// names of Config.Hosts, not to loopback literals of another address.
func TestHostAllowedNonLoopback(t *testing.T) {
	s := New(Config{Hosts: []string{"MyBox.lan"}})
	local := &net.TCPAddr{IP: net.ParseIP("192.168.1.5"), Port: 8080}
	for host, want := range map[string]bool{
		"192.168.1.5:8080": true, "192.168.1.5": false, "mybox.lan:8080": true, "mybox.lan.:8080": true,
		"localhost:8080": true, "127.0.0.1:8080": false, "192.168.1.6:8080": false, "evil.example:8080": false, "": false,
	} {
		if got, _ := s.hostAllowed(host, local); got != want {
			t.Errorf("Host %q on %s: allowed %v, want %v", host, local, got, want)
		}
	}
	v6 := &net.TCPAddr{IP: net.ParseIP("::1"), Port: 80}
	for host, want := range map[string]bool{"[::1]": true, "[::1]:80": true, "localhost": true, "127.0.0.1": true, "[::1]:81": false, "example.com": false} {
		if got, _ := s.hostAllowed(host, v6); got != want {
			t.Errorf("Host %q on %s: allowed %v, want %v", host, v6, got, want)
		}
	}
}

// A game recorded twice in a file with a bad line is listed once; the
// later copy is a bad line.
func TestDuplicateGameIsABadLine(t *testing.T) {
	data := manyRecords(t, 10, map[int]string{5: "not json"})
	lines := bytes.SplitAfter(data, []byte("\n"))
	data = append(data, lines[2]...) // round 3 again, as line 12
	path := t.TempDir() + "/games.jsonl"
	os.WriteFile(path, data, 0o644)
	ts := newTestServer(t, nil, path)
	_, _, body := get(t, ts.URL+"/api/games")
	var l gameList
	json.Unmarshal([]byte(body), &l)
	probs := strings.Join(l.Problems, "\n")
	if l.Total != 10 || !strings.Contains(probs, path+":6: ") || !strings.Contains(probs, path+":12: game recorded twice: round 3 game 1 is already recorded on line 3") {
		t.Errorf("%d games, problems %q", l.Total, probs)
	}
}

// recordConstants returns the values of engine/record's constants of the
// given type, read from its source, so that a new reason or forfeit kind
// there cannot be missed here.
func recordConstants(t *testing.T, typ string) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "../../engine/record", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != typ {
						continue
					}
					for _, v := range vs.Values {
						lit, ok := v.(*ast.BasicLit)
						if !ok {
							t.Fatalf("%s constant %s is not a literal", typ, types.ExprString(v))
						}
						s, _ := strconv.Unquote(lit.Value)
						if s != "" {
							out = append(out, s)
						}
					}
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s constants found in engine/record", typ)
	}
	return out
}

// The Reason filter offers every reason and every forfeit kind of
// engine/record, served by /api/games (the page builds its menu from it).
func TestReasonFilterMatchesRecord(t *testing.T) {
	want := append(recordConstants(t, "Reason"), recordConstants(t, "Forfeit")...)
	ts := newTestServer(t, nil, records)
	_, _, body := get(t, ts.URL+"/api/games")
	var l struct{ Reasons []string }
	json.Unmarshal([]byte(body), &l)
	got := append([]string(nil), l.Reasons...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the Reason filter offers %q, engine/record has %q", got, want)
	}
	for _, r := range []string{"protocol error", "start failure", "memory", "forbidden"} {
		if !slices.Contains(l.Reasons, r) {
			t.Errorf("the Reason filter lacks %q", r)
		}
	}
	// The page holds no list of its own to drift.
	_, _, page := get(t, ts.URL+"/")
	if strings.Contains(page, "<option>timeout</option>") {
		t.Errorf("the page hard-codes reasons")
	}
	// Each reason filters: a forfeit kind by the forfeit, the others by the reason.
	for _, r := range want {
		code, _, _ := get(t, ts.URL+"/api/games?reason="+url.QueryEscape(r))
		if code != 200 {
			t.Errorf("reason %q: %d", r, code)
		}
	}
}

// openEvents opens ts's event stream.
func openEvents(t *testing.T, base string) <-chan sseEvent {
	t.Helper()
	resp, err := http.Get(base + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return readEvents(resp.Body)
}

// A match that ends sends "matchend" with its message, after the last
// summary; a page that connects later finds it in the snapshot.
func TestHubSendsMatchEnd(t *testing.T) {
	hub := NewHub()
	ts := newTestServer(t, hub)
	events := openEvents(t, ts.URL)
	if ev := next(t, events); ev.kind != "snapshot" || strings.Contains(ev.data, "ended") {
		t.Fatalf("first event %v", ev)
	}
	hub.Summary(Summary{Done: 2, Total: 2})
	hub.MatchEnded("all 2 games played")
	hub.MatchEnded("again") // ignored
	if ev := next(t, events); ev.kind != "summary" {
		t.Fatalf("event %v, want the summary", ev)
	}
	if ev := next(t, events); ev.kind != "matchend" || ev.data != `{"message":"all 2 games played"}` {
		t.Fatalf("event %v, want matchend", ev)
	}
	if ev := next(t, openEvents(t, ts.URL)); ev.kind != "snapshot" || !strings.Contains(ev.data, `"ended":{"message":"all 2 games played"}`) {
		t.Errorf("a later page's snapshot: %v", ev)
	}
}

// A viewer stopped (Ctrl-C on kinrow match --view) tells its pages the
// match was stopped before the streams close.
func TestServeStopSendsMatchEnd(t *testing.T) {
	url, cancel, done := serveInBackground(t)
	events := openEvents(t, url)
	next(t, events)
	cancel()
	if ev := next(t, events); ev.kind != "matchend" || !strings.Contains(ev.data, "stopped") {
		t.Errorf("event %v, want matchend saying the match was stopped", ev)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// An unbounded Elo difference or error (infinite, or the runner's clamp at
// ±9999) is sent as "inf"/"-inf", which the page shows as ∞; an infinite
// one no longer loses the whole summary.
func TestSummaryUnboundedElo(t *testing.T) {
	for _, tc := range []struct {
		elo, err float64
		want     string
	}{
		{191.25, 300, `"elo":191.25,"elo_err":300`},
		{9999, 9999, `"elo":"inf","elo_err":"inf"`},
		{math.Inf(-1), math.Inf(1), `"elo":"-inf","elo_err":"inf"`},
		{0, math.NaN(), `"elo":0,"elo_err":"nan"`},
	} {
		b, err := json.Marshal(Summary{Rows: []SummaryRow{{A: "a", B: "b", Wins: 1, Elo: tc.elo, EloErr: tc.err}}})
		if err != nil || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), `"a":"a","b":"b","wins":1`) {
			t.Errorf("Elo %v ± %v: %s %v, want %s", tc.elo, tc.err, b, err, tc.want)
		}
	}
	hub := NewHub()
	ts := newTestServer(t, hub)
	events := openEvents(t, ts.URL)
	next(t, events)
	hub.Summary(Summary{Done: 1, Total: 2, Rows: []SummaryRow{{A: "a", B: "b", Wins: 1, Elo: math.Inf(1), EloErr: math.Inf(1)}}})
	if ev := next(t, events); ev.kind != "summary" || !strings.Contains(ev.data, `"elo_err":"inf"`) {
		t.Errorf("event %v", ev)
	}
	_, _, js := get(t, ts.URL+"/static/app.js")
	if !strings.Contains(js, `"∞"`) {
		t.Errorf("the page does not show ∞")
	}
}

// Panes the page hides are hidden, whatever their display (#replay is a
// flex box): the stylesheet makes [hidden] win.
func TestHiddenPanesStayHidden(t *testing.T) {
	ts := newTestServer(t, nil)
	_, _, css := get(t, ts.URL+"/static/style.css")
	if !strings.Contains(css, "[hidden] { display: none !important; }") {
		t.Errorf("style.css lets display override hidden")
	}
}
