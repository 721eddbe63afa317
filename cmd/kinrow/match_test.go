package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/protocol/gtp"
)

// kinrowCmd prepares bin/kinrow with the test bots on the path and a private
// TMPDIR.
func kinrowCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return kinrowIn(shortTempDir(t, "km"), "", "warn", args...)
}

func TestMatchForfeitsAreCredited(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	cmd := kinrowCmd(t, "match", "--rules", "connect4", "--bot", "random", "--bot", "hang", "--bot", "crash",
		"--bot", "illegal", "--bot", "late", "--gauntlet", "--games", "2", "--concurrency", "2",
		"--movetime", "200ms", "--grace", "50ms", "--out", out, "--format", "json", "--bot-opt", "late:late_ms=1000")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow match: %v\n%s", err, stderr.String())
	}
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("the match took %v: it waited on bots", took)
	}
	var sum struct {
		Games    int `json:"games"`
		Pairings []struct {
			A     string `json:"a"`
			B     string `json:"b"`
			Games int    `json:"games"`
			Wins  int    `json:"wins"`
			Bots  []struct {
				Name     string `json:"name"`
				Forfeits []struct {
					Reason string `json:"reason"`
					Count  int    `json:"count"`
				} `json:"forfeits"`
			} `json:"bots"`
		} `json:"pairings"`
	}
	if err := json.Unmarshal([]byte(stdout.String()), &sum); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
	}
	checkSnakeCase(t, stdout.String())
	want := map[string]string{"hang": "timeout", "crash": "crash", "illegal": "illegal move", "late": "timeout"}
	if sum.Games != 8 || len(sum.Pairings) != 4 {
		t.Fatalf("summary: %+v", sum)
	}
	for _, p := range sum.Pairings {
		ok := len(p.Bots) == 2 && p.Bots[0].Name == p.A && p.Bots[1].Name == p.B && len(p.Bots[0].Forfeits) == 0 &&
			len(p.Bots[1].Forfeits) == 1 && p.Bots[1].Forfeits[0].Reason == want[p.B] && p.Bots[1].Forfeits[0].Count == 2
		if p.A != "random" || p.Wins != 2 || !ok {
			t.Errorf("pairing %s vs %s: wins %d, bots %+v; want random to win both by %s", p.A, p.B, p.Wins, p.Bots, want[p.B])
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d records", len(lines))
	}
	for _, l := range lines {
		rec, err := record.Parse([]byte(l))
		if err != nil || rec.Reason != record.ReasonForfeit || rec.Winner == nil || *rec.Winner != "random" {
			t.Errorf("record %s: %v", l, err)
		}
	}
	checkNoBotProcesses(t)
}

func TestMatchBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "openings.txt")
	os.WriteFile(bad, []byte("44\n# fine\n4x\n"), 0o644)
	other := filepath.Join(dir, "other.jsonl")
	os.WriteFile(other, []byte(`{"rules":"mnk:3x3x3","players":{"x":"random","o":"random#2"},"moves":[],"result":"0","reason":"adjudication","winner":null,"round":1,"game":1}`+"\n"), 0o644)
	// Game 1 of random vs random#2, x wins in column 1; twice.
	game1 := `{"rules":"connectx:6x7x4","players":{"x":"random","o":"random#2"},"moves":[` +
		`{"move":"1","color":"x","ms":1},{"move":"2","color":"o","ms":1},{"move":"1","color":"x","ms":1},{"move":"2","color":"o","ms":1},` +
		`{"move":"1","color":"x","ms":1},{"move":"2","color":"o","ms":1},{"move":"1","color":"x","ms":1}],` +
		`"result":"X+","reason":"win","winner":"random","round":1,"game":1}` + "\n"
	dup := filepath.Join(dir, "dup.jsonl")
	os.WriteFile(dup, []byte(game1+game1), 0o644)
	past := filepath.Join(dir, "past.jsonl")
	os.WriteFile(past, []byte(game1+strings.Replace(game1, `"game":1`, `"game":3`, 1)), 0o644)
	full := filepath.Join(dir, "full.jsonl")
	os.WriteFile(full, []byte(game1), 0o644)
	base := []string{"match", "--bot", "random", "--bot", "random"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"match", "--bot", "random", "--bot", "nosuch"}, `unknown bot "nosuch"`},
		{append(base, "--rules", "chess"), "unknown rules"},
		{append(base, "--games", "0"), "--games 0"},
		{append(base, "--openings", bad), "openings.txt:3"},
		{append(base, "--out", "/nonexistent/dir/x.jsonl"), "--out"},
		// The hand-written records predate signatures: --allow-unsigned, but
		// for the first, which is refused as unsigned.
		{append(base, "--out", other, "--resume"), "other.jsonl:1: unsigned record"},
		{append(base, "--out", other, "--resume", "--allow-unsigned"), "this run plays connectx:6x7x4"},
		{append(base, "--tc", "fast"), "--tc"},
		{append(base, "--sprt", "elo0=5,elo1=1"), "elo1 must be greater"},
		{[]string{"match", "--bot", "random"}, "at least two bots"},
		{append(base, "--out", full), "give --resume"},
		{append(base, "--out", dup, "--resume", "--allow-unsigned"), "dup.jsonl:2: round 1 game 1 is already recorded on line 1"},
		{append(base, "--out", past, "--resume", "--allow-unsigned", "--games", "2"), "past.jsonl:2: round 1 game 3 is outside the schedule"},
		{append(base, "--sprt", "model=bayesian"), "accepted are normalized and logistic"},
		{append(base, "--sprt", "elo0=nan"), "finite"},
		{append(base, "--gomocup-tolerance", "-1s"), "--gomocup-tolerance"},
	}
	files := map[string][]byte{}
	for _, f := range []string{full, dup, past} {
		files[f], _ = os.ReadFile(f)
	}
	for _, tc := range tests {
		cmd := kinrowCmd(t, tc.args...)
		out, err := cmd.CombinedOutput()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 || !strings.Contains(string(out), tc.want) {
			t.Errorf("%v: exit %d, output %q; want exit 2 and %q", tc.args[1:], code, out, tc.want)
		}
		if strings.Contains(string(out), "game 1/") {
			t.Errorf("%v: a game started before the error", tc.args[1:])
		}
	}
	for f, data := range files {
		if after, _ := os.ReadFile(f); string(after) != string(data) {
			t.Errorf("%s changed by a refused run:\n%s", f, after)
		}
	}
	checkNoBotProcesses(t)
}

func TestMatchInterruptKeepsFinishedGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	// random vs late: each game with late ends only when late times out
	// (300 ms); 40 games take far longer than we wait.
	var stderr strings.Builder
	cmd := startLateMatch(t, out, io.Discard, &stderr)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Errorf("exit after Ctrl-C: %v\n%s", err, stderr.String())
	}
	data, _ := os.ReadFile(out)
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if _, err := record.Parse([]byte(l)); err != nil {
			t.Errorf("record after interrupt: %v", err)
		}
		n++
	}
	if n < 2 || n >= 40 {
		t.Errorf("%d games kept", n)
	}
	checkNoBotProcesses(t)
}

// checkSnakeCase walks a decoded JSON document and fails on any object key
// that is not snake_case (lower-case words and digits joined by "_").
func checkSnakeCase(t *testing.T, doc string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if !snake.MatchString(k) {
					t.Errorf("JSON key %s.%q is not snake_case", path, k)
				}
				walk(path+"."+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", v)
}

func TestMatchSummaryLikeCutechess(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		cmd := kinrowCmd(t, "match", "--rules", "connect4", "--bot", "random", "--bot", "random", "--games", "4",
			"--movetime", "200ms", "--sprt", "elo0=-5,elo1=5,model=logistic", "--format", format)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", format, err, stderr.String())
		}
		out := stdout.String()
		if format == "json" {
			checkSnakeCase(t, out)
			var sum struct {
				Pairings []map[string]any `json:"pairings"`
				SPRT     map[string]any   `json:"sprt"`
			}
			json.Unmarshal([]byte(out), &sum)
			if len(sum.Pairings) != 1 || sum.Pairings[0]["games"] == 0.0 || sum.SPRT["model"] != "logistic" ||
				sum.SPRT["lower_bound"] == nil || sum.Pairings[0]["a_as_x"] == nil || sum.Pairings[0]["draw_ratio"] == nil {
				t.Errorf("JSON summary:\n%s", out)
			}
			continue
		}
		score := regexp.MustCompile(`(?m)^Score of random vs random#2: (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)$`).FindStringSubmatch(out)
		if score == nil {
			t.Fatalf("no cutechess score line:\n%s", out)
		}
		w, _ := strconv.Atoi(score[1])
		l, _ := strconv.Atoi(score[2])
		d, _ := strconv.Atoi(score[3])
		n, _ := strconv.Atoi(score[5])
		// The SPRT may stop the match after a pair.
		if w+l+d != n || n < 2 || n > 4 || n%2 != 0 || score[4] != fmt.Sprintf("%.3f", (float64(w)+float64(d)/2)/float64(n)) {
			t.Errorf("score line %q", score[0])
		}
		for _, re := range []string{
			fmt.Sprintf(`(?m)^\.\.\.      random playing x: \d+ - \d+ - \d+  \[\d\.\d{3}\] %d$`, n/2),
			fmt.Sprintf(`(?m)^\.\.\.      random playing o: \d+ - \d+ - \d+  \[\d\.\d{3}\] %d$`, n/2),
			fmt.Sprintf(`(?m)^\.\.\.      x vs o: \d+ - \d+ - \d+  \[\d\.\d{3}\] %d$`, n),
			`(?m)^Elo difference: (-?inf|nan|-?\d+\.\d) \+/- (inf|nan|\d+\.\d), LOS: \d+\.\d %, DrawRatio: \d+\.\d %$`,
			`(?m)^SPRT: llr \S+ \(-?\d+\.\d%\), lbound -2\.94, ubound 2\.94( - H[01] was accepted)?$`,
			`(?m)^SPRT elo0=-5 elo1=5 alpha=0\.05 beta=0\.05 model=logistic: LLR `,
		} {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("no line matching %s in:\n%s", re, out)
			}
		}
	}
	checkNoBotProcesses(t)
}

// checkRecords reads --out after an interrupted run: every line a complete
// record of a finished game, none blaming a bot for the interruption.
func checkRecords(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		t.Errorf("--out ends in a torn line: %q", data[max(0, len(data)-80):])
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		rec, err := record.Parse([]byte(l))
		if err != nil {
			t.Errorf("record %d: %v", n+1, err)
			continue
		}
		n++
		if rec.Result == "" || rec.Reason == record.ReasonNone || rec.End.IsZero() || rec.Round != 1 || rec.Game < 1 ||
			(rec.Result == "0") != (rec.Winner == nil) {
			t.Errorf("incomplete record: %s", l)
		}
		if rec.Forfeit == record.ForfeitCrash || strings.Contains(rec.Detail, "cancel") {
			t.Errorf("a healthy bot blamed for the interruption: %s", rec.Summary())
		}
	}
	return n
}

// gamesInSummary reads "RULES: N games" from a text summary.
func gamesInSummary(t *testing.T, out string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^connectx:6x7x4: (\d+) games$`).FindStringSubmatch(out)
	if m == nil {
		t.Errorf("no summary on stdout:\n%s", out)
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestMatchSignalAbandonsRunningGames is the reproduction: Ctrl-C
// or SIGTERM during a fast match recorded the games being played as
// crashes of healthy bots ("o (random) play: Canceled: context canceled",
// in about one run in three). Each run is signalled at another moment.
func TestMatchSignalAbandonsRunningGames(t *testing.T) {
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}
	for i := range 8 {
		sig := sigs[i%2]
		out := filepath.Join(t.TempDir(), "o.jsonl")
		cmd := kinrowCmd(t, "match", "--rules", "connect4", "--bot", "random", "--bot", "random",
			"--games", "2000", "--concurrency", "2", "--movetime", "50ms", "--out", out)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &syncWriter{w: &stderr}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") >= 1 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(time.Duration(i*37) * time.Millisecond)
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("run %d: kinrow match did not stop after %v", i, sig)
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Errorf("run %d: exit after %v: %v; want 130\n%s", i, sig, err, stderr.String())
		}
		n := checkRecords(t, out)
		if counted := gamesInSummary(t, stdout.String()); counted != n {
			t.Errorf("run %d: the summary counts %d games, --out holds %d", i, counted, n)
		}
		checkNoBotProcesses(t)
		if t.Failed() {
			t.Logf("run %d (%v) stderr:\n%s", i, sig, stderr.String())
			return
		}
	}
}

// TestMatchSIGHUPPrintsSummary: SIGHUP (the terminal closed) killed the
// match with no summary; now it ends the run as Ctrl-C does.
func TestMatchSIGHUPPrintsSummary(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	var stdout, stderr strings.Builder
	cmd := startLateMatch(t, out, &stdout, &syncWriter{w: &stderr})
	cmd.Process.Signal(syscall.SIGHUP)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit after SIGHUP: %v; want 130\n%s", err, stderr.String())
	}
	n := checkRecords(t, out)
	if counted := gamesInSummary(t, stdout.String()); counted != n || n < 2 {
		t.Errorf("the summary counts %d games, --out holds %d (want at least 2)", counted, n)
	}
	if !strings.Contains(stdout.String(), "Score of random vs late: ") {
		t.Errorf("no score line after SIGHUP:\n%s", stdout.String())
	}
	checkNoBotProcesses(t)
}

// TestServeSIGHUPStopsBots: SIGHUP ends `kinrow serve` as Ctrl-C does: its
// bots are stopped and it exits with status 130.
func TestServeSIGHUPStopsBots(t *testing.T) {
	cmd := kinrowCmd(t, "serve", "--rules", "connect4")
	var stderr strings.Builder
	cmd.Stderr = &syncWriter{w: &stderr}
	in, outPipe := startPiped(t, cmd)
	defer in.Close()
	client := gtp.NewClient(in, outPipe)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if r, err := client.Do(ctx, "kinrow-load", "o", "random"); err != nil || !r.OK {
		t.Fatalf("kinrow-load: %v %+v\n%s", err, r, stderr.String())
	}
	if r, err := client.Do(ctx, "play", "x", "4"); err != nil || !r.OK {
		t.Fatalf("play: %v %+v", err, r)
	}
	if r, err := client.Do(ctx, "genmove", "o"); err != nil || !r.OK {
		t.Fatalf("genmove: %v %+v", err, r)
	}
	if len(botProcesses()) == 0 {
		t.Fatal("no bot process to stop")
	}
	cmd.Process.Signal(syscall.SIGHUP)
	var err error
	select {
	case err = <-waited(cmd):
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("kinrow serve did not stop after SIGHUP")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit after SIGHUP: %v; want 130\n%s", err, stderr.String())
	}
	checkNoBotProcesses(t)
}

// summaryBots is the "bots" list of a pairing in the JSON summary (A, then
// B), for the tests that decode it.
type summaryBots []struct {
	Name     string `json:"name"`
	Forfeits []struct {
		Reason string `json:"reason"`
		Count  int    `json:"count"`
	} `json:"forfeits"`
}

// forfeits maps each bot's name to its forfeits by reason.
func (b summaryBots) forfeits() map[string]map[string]int {
	m := map[string]map[string]int{}
	for _, bot := range b {
		m[bot.Name] = map[string]int{}
		for _, f := range bot.Forfeits {
			m[bot.Name][f.Reason] += f.Count
		}
	}
	return m
}

// startLateMatch starts a 40-game match of random against late, each game
// ending only when late times out (300 ms): far longer than a test waits.
// It returns once out holds two records (or after 30 s).
func startLateMatch(t *testing.T, out string, stdout, stderr io.Writer) *exec.Cmd {
	t.Helper()
	cmd := kinrowCmd(t, "match", "--rules", "connect4", "--bot", "random", "--bot", "late",
		"--games", "40", "--movetime", "300ms", "--out", out, "--bot-opt", "late:late_ms=2000")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") >= 2 {
			break
		}
	}
	return cmd
}
