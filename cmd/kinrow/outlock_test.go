//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 24: two runs on one new --out both passed the "file is empty"
// check (3 of 4 trials wrote 40 records for a 20-game schedule), and two
// --resume runs at once added duplicates. A run now holds the file's lock
// from before its first read to its end; a second run is refused at once,
// exit 2, naming the holder, without writing — with --resume too.
func TestOutHasOneWriter(t *testing.T) {
	out := filepath.Join(t.TempDir(), "race.jsonl")
	// hang hangs its first move for the whole 20 s: the first run is busy.
	args := []string{"match", "--rules", "tictactoe", "--bot", "hang", "--bot", "random",
		"--games", "2", "--movetime", "20s", "--out", out}
	first := kinrowCmd(t, args...)
	var firstErr strings.Builder
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	t.Cleanup(func() {
		first.Process.Kill()
		<-done
	})
	// The first run holds the lock once it opened --out.
	waitFor(t, 20*time.Second, func() bool {
		st, err := os.Stat(out)
		if err != nil {
			return false
		}
		b, _ := os.ReadFile("/proc/locks")
		ino := ":" + strconv.FormatUint(st.Sys().(*syscall.Stat_t).Ino, 10) + " "
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "FLOCK") && strings.Contains(l, ino) {
				return true
			}
		}
		return false
	})
	for _, extra := range [][]string{nil, {"--resume"}} {
		second := kinrowCmd(t, append(append([]string{}, args...), extra...)...)
		b, err := second.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("second run %v: %v, want exit 2\n%s", extra, err, b)
		}
		want := regexp.MustCompile(`--out .*race\.jsonl: another kinrow run is writing it: process (\d+) holds its lock`)
		m := want.FindSubmatch(b)
		if m == nil {
			t.Errorf("second run %v says:\n%s\nwant it to name the holder", extra, b)
		} else if pid, _ := strconv.Atoi(string(m[1])); pid != first.Process.Pid {
			t.Errorf("second run %v names process %d, the first run is %d", extra, pid, first.Process.Pid)
		}
	}
	if data, _ := os.ReadFile(out); len(data) != 0 {
		t.Errorf("--out holds %d bytes while the first run has finished no game: the second run wrote", len(data))
	}
}

// Issue 24: --out /dev/null failed after the first game ("sync /dev/null:
// invalid argument").
func TestOutDevNull(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil || os.DevNull != "/dev/null" {
		t.Skip("no /dev/null")
	}
	sum := runMatch(t, "--rules", "tictactoe", "--bot", "random", "--bot", "random", "--games", "4", "--movetime", "50ms", "--out", os.DevNull)
	games := 0
	for _, p := range sum.Pairings {
		games += p.Games
	}
	if games != 4 {
		t.Errorf("%d games played into /dev/null, want 4", games)
	}
}

// waitFor polls cond every 20 ms until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
