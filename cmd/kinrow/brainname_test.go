package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/internal/testbuild"
)

func TestBrainOfExecutable(t *testing.T) {
	for _, tc := range []struct {
		argv0 string
		bot   string
		ok    bool
	}{
		{"pbrain-kinrow", "", true},
		{"/usr/local/bin/pbrain-kinrow-alphabeta", "alphabeta", true},
		{`pbrain-kinrow-mics.exe`, "mics", true},
		{"./bin/pbrain-kinrow-", "", true},
		{"kinrow", "", false},
		{"pbrain-other", "", false},
		{"pbrain-kinrowx", "", false},
	} {
		if bot, ok := brainOfExecutable(tc.argv0); bot != tc.bot || ok != tc.ok {
			t.Errorf("brainOfExecutable(%q) = %q, %v; want %q, %v", tc.argv0, bot, ok, tc.bot, tc.ok)
		}
	}
}

// copyFile copies an executable.
func copyFile(t *testing.T, from, to string) { testbuild.CopyExecutable(t, from, to) }

// TestNamedBrain copies kinrow as pbrain-kinrow-random beside the random
// bot, as make does, and plays through pipes: the copy is a Gomocup brain
// playing bot random, found beside the executable.
func TestNamedBrain(t *testing.T) {
	dir, err := os.MkdirTemp("", "kb") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	copyFile(t, filepath.Join(binDir, "kinrow"), filepath.Join(dir, "pbrain-kinrow-random"))
	copyFile(t, filepath.Join(binDir, "kinrow-bot-random"), filepath.Join(dir, "kinrow-bot-random"))
	cmd := exec.Command(filepath.Join(dir, "pbrain-kinrow-random"))
	cmd.Env = append(os.Environ(), "TMPDIR="+dir, "KINROW_BOT_PATH=", "KINROW_LOG=warn")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewReader(out)
	ask := func(line string) string {
		t.Helper()
		io.WriteString(in, line+"\r\n")
		got, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return strings.TrimSpace(got)
	}
	if got := ask("ABOUT"); !strings.Contains(got, `name="kinrow-random"`) {
		t.Errorf("ABOUT: %q", got)
	}
	if got := ask("START 20"); got != "OK" {
		t.Fatalf("START 20: %q", got)
	}
	if got := ask("TURN 10,10"); !strings.Contains(got, ",") || got == "10,10" {
		t.Errorf("TURN 10,10: %q", got)
	}
	start := time.Now()
	io.WriteString(in, "END\r\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(time.Second):
		t.Fatalf("still running %v after END", time.Since(start))
	}
}
