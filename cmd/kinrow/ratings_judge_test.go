package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 24, end to end: the records of a real tic-tac-toe match pass every
// reader (ratings, merge, export, --resume), and a copy with one game
// forged into "X+ by a win" (after 3 moves with no line, or after 1 move),
// its round, game and schedule kept, is refused by each, naming the file,
// the line and why: the one judge of record.ReadLines.
func TestRatingsMergeResumeExportJudgeRecords(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.jsonl")
	args := func(out string, extra ...string) []string {
		return append([]string{"match", "--rules", "tictactoe", "--bot", "random", "--bot", "mics",
			"--games", "6", "--seed", "3", "--movetime", "100ms", "--out", out}, extra...)
	}
	runOK(t, kinrowCmd(t, args(real)...))
	data, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d records", len(lines))
	}
	run := func(args ...string) (string, int) {
		out, err := kinrowCmd(t, args...).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	// The real records pass.
	for _, a := range [][]string{
		{"ratings", real},
		{"merge", filepath.Join(dir, "merged.jsonl"), real},
		{"export", "--format", "text", real},
		args(real, "--resume"),
	} {
		if out, code := run(a...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", a, code, out)
		}
	}
	for _, forged := range []struct{ name, moves, why string }{
		{"three", "a1 b3 c2", "X+ by a win, but the 3 moves make no line of 3 (the game is still open)"},
		{"one", "b2", "X+ by a win, but the 1 move makes no line of 3"},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[1]), &m); err != nil {
			t.Fatal(err)
		}
		var ms []any
		for i, mv := range strings.Fields(forged.moves) {
			ms = append(ms, map[string]any{"move": mv, "color": []string{"x", "o"}[i%2], "ms": 1})
		}
		m["moves"], m["result"], m["reason"] = ms, "X+", "win"
		m["winner"] = m["players"].(map[string]any)["x"]
		delete(m, "forfeit")
		delete(m, "detail")
		// Signed again with this host's key: whoever holds the key can
		// sign a forgery, and the judge still refuses it.
		b := signAsHost(t, m)
		path := filepath.Join(dir, forged.name+".jsonl")
		content := lines[0] + b + "\n" + strings.Join(lines[2:], "") + "\n"
		os.WriteFile(path, []byte(content), 0o644)
		want := path + ":2: round 1 game 2: " + forged.why
		for _, tc := range []struct {
			args []string
			code int
		}{
			{[]string{"ratings", path}, 1},
			{[]string{"merge", filepath.Join(dir, forged.name+"-merged.jsonl"), path}, 2},
			{[]string{"export", "--format", "text", path}, 1},
			{args(path, "--resume"), 2},
		} {
			out, code := run(tc.args...)
			if code != tc.code || !strings.Contains(out, want) {
				t.Errorf("%v: exit %d, output %q; want exit %d and %q", tc.args[:2], code, out, tc.code, want)
			}
		}
		if after, _ := os.ReadFile(path); string(after) != content {
			t.Errorf("%s changed by a refused command", path)
		}
		if _, err := os.Stat(filepath.Join(dir, forged.name+"-merged.jsonl")); !os.IsNotExist(err) {
			t.Errorf("a refused merge wrote its output")
		}
		// --skip-invalid rates the 5 real games and counts the forged one.
		out, code := run("ratings", "--skip-invalid", path)
		if code != 0 || !strings.Contains(out, "skipped: "+want) || !strings.Contains(out, "left out 1 invalid record (--skip-invalid)") ||
			!strings.Contains(out, "5 games") {
			t.Errorf("ratings --skip-invalid: exit %d\n%s", code, out)
		}
	}
}
