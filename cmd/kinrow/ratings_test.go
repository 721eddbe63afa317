package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// writeRecords writes records of rules between x and o (x first): w wins
// of x, d draws, l wins of o, as kinrow match --out writes them.
func writeRecords(t *testing.T, f *os.File, rules engine.Rules, x, o string, w, d, l int) {
	t.Helper()
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for i := range w + d + l {
		r := record.New(rules, record.Players{X: x, O: o}, start)
		res := engine.XWins
		switch {
		case i >= w+d:
			res = engine.OWins
		case i >= w:
			res = engine.Draw
		}
		// No moves: a resignation, or a draw by the move limit (the judge
		// of record.ReadLines wants a win made by the moves).
		reason := record.ReasonResignation
		if res == engine.Draw {
			reason = record.ReasonAdjudicated
		}
		r.Finish(res, reason, "", "", start.Add(time.Second))
		line, err := r.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
	}
}

// ratingsJSON is what the tests read of `kinrow ratings --format json`.
type ratingsJSON struct {
	Groups []struct {
		Rules              string
		Games              int
		Prior              float64
		Anchor             string
		FirstMoveAdvantage struct{ Elo, PlusMinus float64 } `json:"first_move_advantage"`
		Bots               []struct {
			Rank                int
			Bot                 string
			Elo                 float64
			PlusMinus           float64 `json:"plus_minus"`
			Games, Wins, Losses int
			Draws               int
			Score               float64
		}
	}
}

func runRatings(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return kinrowRun(t, append([]string{"ratings"}, args...)...)
}

// Records of real matches, in two files as two shards would leave them,
// rated together: every game counted once, in the order given or not.
func TestRatingsOfMatchRecords(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for i, out := range []string{a, b} {
		cmd := kinrowCmd(t, "match", "--rules", "mnk:4x4x3", "--bot", "random", "--bot", "mics", "--bot", "alphabeta",
			"--games", "2", "--movetime", "50ms", "--out", out, "--seed", fmt.Sprint(i+1))
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kinrow match: %v\n%s", err, o)
		}
	}
	lines := 0
	for _, f := range []string{a, b} {
		data, _ := os.ReadFile(f)
		lines += strings.Count(string(data), "\n")
	}
	stdout, stderr, code := runRatings(t, "--format", "json", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep ratingsJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if len(rep.Groups) != 1 || rep.Groups[0].Games != lines || len(rep.Groups[0].Bots) != 3 {
		t.Fatalf("%d records, report %+v", lines, rep)
	}
	perBot := 0
	for _, bot := range rep.Groups[0].Bots {
		perBot += bot.Games
		if bot.Games != 2*2*2 {
			t.Errorf("%s: %d games, want 8 (2 opponents, 2 games a pairing, 2 files)", bot.Bot, bot.Games)
		}
	}
	if perBot != 2*lines {
		t.Errorf("bots' games add up to %d, want %d", perBot, 2*lines)
	}
	// The files in the other order, flags after them: the same report.
	again, stderr, code := runRatings(t, b, a, "--format", "json")
	if code != 0 || again != stdout {
		t.Errorf("files swapped: exit %d, %s\n%s\nwant\n%s", code, stderr, again, stdout)
	}
	// The text table.
	text, stderr, code := runRatings(t, a, b)
	if code != 0 || !strings.Contains(text, "mnk:4x4x3: 12 games, 3 bots") || !strings.Contains(text, "rank") {
		t.Errorf("text: exit %d, %s\n%s", code, stderr, text)
	}
}

func TestRatingsAnchorRulesAndStdin(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	c4 := engine.Connect4()
	gom, err := engine.ParseRules("gomoku")
	if err != nil {
		t.Fatal(err)
	}
	writeRecords(t, f, c4, "alpha", "beta", 6, 2, 2)
	writeRecords(t, f, c4, "beta", "alpha", 4, 2, 4)
	writeRecords(t, f, c4, "beta", "gamma", 5, 3, 2)
	writeRecords(t, f, c4, "gamma", "beta", 3, 3, 4)
	writeRecords(t, f, c4, "gamma", "alpha", 2, 2, 6)
	writeRecords(t, f, c4, "alpha", "gamma", 5, 1, 4)
	writeRecords(t, f, gom, "alpha", "beta", 3, 0, 2)
	writeRecords(t, f, gom, "beta", "alpha", 2, 0, 3)
	f.Close()

	// Hand-written records: --allow-unsigned, the test is about the options.
	stdout, stderr, code := runRatings(t, "--allow-unsigned", "--anchor", "beta=1000", "--format", "json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep ratingsJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Groups) != 2 {
		t.Fatalf("groups: %+v", rep.Groups)
	}
	for _, g := range rep.Groups {
		if g.Anchor != "beta" {
			t.Errorf("%s: anchor %q", g.Rules, g.Anchor)
		}
		for _, b := range g.Bots {
			if b.Bot == "beta" && (b.Elo != 1000 || b.PlusMinus != 0) {
				t.Errorf("%s: anchor %+v", g.Rules, b)
			}
		}
	}
	if c := rep.Groups[0]; c.Rules != "connectx:6x7x4" || c.Games != 60 || c.Bots[0].Bot != "alpha" || c.Bots[0].Rank != 1 {
		t.Errorf("connect4 group: %+v", c)
	}
	// Only gomoku, read from stdin.
	cmd := kinrowCmd(t, "ratings", "--allow-unsigned", "--rules", "gomoku", "-")
	in, _ := os.Open(path)
	defer in.Close()
	cmd.Stdin = in
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "mnk:15x15x5: 10 games, 2 bots") || strings.Contains(string(out), "connectx") {
		t.Errorf("--rules gomoku from stdin: %v\n%s", err, out)
	}
}

func TestRatingsBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o644)
		return p
	}
	var good, allX strings.Builder
	for i := range 3 {
		res := []string{"X+", "O+", "0"}[i]
		good.WriteString(noMoveGame("a", "b", res))
		good.WriteString(noMoveGame("b", "a", res))
		allX.WriteString(noMoveGame("a", "b", "X+"))
		allX.WriteString(noMoveGame("b", "a", "X+"))
	}
	ok := write("ok.jsonl", good.String())
	garbage := write("garbage.jsonl", good.String()+"not json\n")
	torn := write("torn.jsonl", good.String()+good.String()[:50])
	empty := write("empty.jsonl", "")
	perfect := write("perfect.jsonl", allX.String())
	// Issue 24: a forged win (X+ by a win after 3 tic-tac-toe moves with no
	// line, or after 1 move) and a game recorded twice are refused.
	forged3 := write("forged3.jsonl", good.String()+`{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"a1","color":"x","ms":1},{"move":"b3","color":"o","ms":1},{"move":"c2","color":"x","ms":1}],"result":"X+","reason":"win","winner":"a"}`+"\n")
	forged1 := write("forged1.jsonl", `{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"b2","color":"x","ms":1}],"result":"X+","reason":"win","winner":"a"}`+"\n"+good.String())
	numbered := strings.Replace(noMoveGame("a", "b", "X+"), `"start"`, `"round":1,"game":1,"schedule":"s","start"`, 1)
	twice := write("twice.jsonl", numbered+good.String()+numbered)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "no record files"},
		{[]string{"--anchor", "=5", ok}, 2, "--anchor"},
		{[]string{"--anchor", "a=abc", ok}, 2, `ELO "abc" is not a finite number`},
		{[]string{"--anchor", "nosuch", ok}, 2, `unknown anchor "nosuch": the games are by a, b`},
		{[]string{"--format", "xml", ok}, 2, "--format"},
		{[]string{"--prior", "-1", ok}, 2, "prior -1 (fallback 0): want a number of virtual games ≥ 0"},
		{[]string{"--prior", "many", ok}, 2, "--prior"},
		{[]string{"--draw-elo", "-5", ok}, 2, "draw Elo -5: want a finite number ≥ 0"},
		{[]string{"--draw-elo", "x", ok}, 2, "--draw-elo"},
		{[]string{"--rules", "chess", ok}, 2, "rules"},
		{[]string{ok, garbage}, 1, "garbage.jsonl:7: decode game record"},
		{[]string{torn}, 1, "torn.jsonl:7: torn last line"},
		{[]string{empty}, 1, "no finished games"},
		{[]string{filepath.Join(dir, "missing.jsonl")}, 1, "no such file"},
		{[]string{"--prior", "0", perfect}, 1, "not finite: the first-move advantage"},
		{[]string{"--rules", "gomoku", ok}, 1, "no finished games to rate under rules mnk:15x15x5"},
		{[]string{ok, forged3}, 1, "forged3.jsonl:7: game record: X+ by a win, but the 3 moves make no line of 3 (the game is still open)"},
		{[]string{forged1, ok}, 1, "forged1.jsonl:1: game record: X+ by a win, but the 1 move makes no line of 3"},
		{[]string{twice}, 1, "twice.jsonl:8: round 1 game 1 is already recorded on line 1"},
	} {
		// Hand-written records: --allow-unsigned, the test is about the
		// options and the judge.
		stdout, stderr, code := runRatings(t, append([]string{"--allow-unsigned"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit %d and %q", tc.args, code, stderr, stdout, tc.code, tc.want)
		}
		if !strings.HasPrefix(stderr, "kinrow ratings: ") {
			t.Errorf("%v: stderr %q does not start with the command", tc.args, stderr)
		}
	}
	// Help is not an error.
	if stdout, _, code := runRatings(t, "-h"); code != 0 || !strings.Contains(stdout, "Usage:\n  kinrow ratings") {
		t.Errorf("-h: exit %d, %q", code, stdout)
	}
}

// noMoveGame is a record line of a connect4 game between x and o with no
// move and result res: a resignation, or a draw by the move limit.
func noMoveGame(x, o, res string) string {
	reason, winner := "resignation", "null"
	switch res {
	case "X+":
		winner = fmt.Sprintf("%q", x)
	case "O+":
		winner = fmt.Sprintf("%q", o)
	default:
		reason = "adjudication"
	}
	return fmt.Sprintf(`{"rules":"connect4","players":{"x":%q,"o":%q},"moves":[],"result":%q,"reason":%q,"winner":%s,"start":"2026-11-23T10:00:00Z"}`+"\n",
		x, o, res, reason, winner)
}

// --skip-invalid leaves out the forged and duplicated records and the torn
// last line, names each with file:line on stderr, counts them, and rates
// the rest: the same ratings as the valid records alone.
func TestRatingsSkipInvalid(t *testing.T) {
	dir := t.TempDir()
	var good strings.Builder
	for i := range 6 {
		res := []string{"X+", "O+", "0"}[i%3]
		good.WriteString(noMoveGame("a", "b", res))
		good.WriteString(noMoveGame("b", "a", res))
	}
	okPath := filepath.Join(dir, "ok.jsonl")
	os.WriteFile(okPath, []byte(good.String()), 0o644)
	lines := strings.SplitAfter(good.String(), "\n")
	forged := `{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"b2","color":"x","ms":1}],"result":"X+","reason":"win","winner":"a"}` + "\n"
	mixed := strings.Join(lines[:3], "") + forged + strings.Join(lines[3:], "") + lines[0][:40]
	mixedPath := filepath.Join(dir, "mixed.jsonl")
	os.WriteFile(mixedPath, []byte(mixed), 0o644)
	// Hand-written records: --allow-unsigned, the test is about the judge.
	want, stderr, code := runRatings(t, "--allow-unsigned", "--format", "json", okPath)
	if code != 0 || !strings.Contains(stderr, "kinrow ratings: 12 unsigned records accepted by --allow-unsigned") {
		t.Fatalf("valid records: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runRatings(t, "--allow-unsigned", "--format", "json", mixedPath); code != 1 || !strings.Contains(stderr, "mixed.jsonl:4: game record: X+ by a win") {
		t.Fatalf("without --skip-invalid: exit %d, %s", code, stderr)
	}
	got, stderr, code := runRatings(t, "--allow-unsigned", "--format", "json", "--skip-invalid", mixedPath)
	if code != 0 || got != want {
		t.Fatalf("--skip-invalid: exit %d, %s\n%s\nwant\n%s", code, stderr, got, want)
	}
	for _, w := range []string{"skipped: " + mixedPath + ":4: game record: X+ by a win", "skipped: " + mixedPath + ":14: torn last line", "left out 2 invalid records (--skip-invalid)"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q lacks %q", stderr, w)
		}
	}
}

// Ctrl-C while the records are still coming on stdin ends the command.
func TestRatingsInterrupted(t *testing.T) {
	cmd := kinrowCmd(t, "ratings", "--allow-unsigned", "-") // a hand-written record
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A valid record, then nothing: the command waits on stdin (records
	// are read a line at a time: an invalid one would end it at once).
	fmt.Fprintf(in, `{"rules":"connect4","players":{"x":"a","o":"b"},"moves":[],"result":"X+","reason":"resignation","winner":"a","start":"2026-11-23T10:00:00Z"}`+"\n")
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("after SIGINT: %v, stderr %q; want exit 130", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("kinrow ratings did not end on SIGINT")
	}
}
