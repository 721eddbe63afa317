package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine/record"
)

// kinrowCmd prepares bin/kinrow with the test bots on the path and a private
// TMPDIR.
func kinrowCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	tmp, err := os.MkdirTemp("", "km")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	cmd := exec.Command(filepath.Join(binDir, "kinrow"), args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "KINROW_BOT_PATH=", "KINROW_LOG=warn", "KINROW_E2E="+binDir)
	return cmd
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
		Games    int
		Pairings []struct {
			A, B        string
			Games, Wins int
			Forfeits    map[string]map[string]int
		}
	}
	if err := json.Unmarshal([]byte(stdout.String()), &sum); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
	}
	want := map[string]string{"hang": "timeout", "crash": "crash", "illegal": "illegal move", "late": "timeout"}
	if sum.Games != 8 || len(sum.Pairings) != 4 {
		t.Fatalf("summary: %+v", sum)
	}
	for _, p := range sum.Pairings {
		if p.A != "random" || p.Wins != 2 || p.Forfeits[p.B][want[p.B]] != 2 {
			t.Errorf("pairing %s vs %s: wins %d, forfeits %v; want random to win both by %s", p.A, p.B, p.Wins, p.Forfeits, want[p.B])
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
	os.WriteFile(other, []byte(`{"rules":"mnk:3x3x3","players":{"x":"random","o":"random#2"},"moves":[],"result":"0","reason":"draw","winner":null,"round":1,"game":1}`+"\n"), 0o644)
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
		{append(base, "--out", other, "--resume"), "this run plays connectx:6x7x4"},
		{append(base, "--tc", "fast"), "--tc"},
		{append(base, "--sprt", "elo0=5,elo1=1"), "elo1 must be greater"},
		{[]string{"match", "--bot", "random"}, "at least two bots"},
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
	checkNoBotProcesses(t)
}

func TestMatchInterruptKeepsFinishedGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	// random vs late: each game with late ends only when late times out
	// (300 ms); 40 games take far longer than we wait.
	cmd := kinrowCmd(t, "match", "--rules", "connect4", "--bot", "random", "--bot", "late",
		"--games", "40", "--movetime", "300ms", "--out", out, "--bot-opt", "late:late_ms=2000")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") >= 2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
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
