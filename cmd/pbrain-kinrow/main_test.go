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

func TestBotOfExecutable(t *testing.T) {
	tests := []struct{ argv0, want string }{
		{"pbrain-kinrow", ""},
		{"/usr/local/bin/pbrain-kinrow-alphabeta", "alphabeta"},
		{`pbrain-kinrow-mics.exe`, "mics"},
		{"./bin/pbrain-kinrow-", ""},
		{"kinrow", ""},
		{"pbrain-other", ""},
	}
	for _, tt := range tests {
		if got := botOfExecutable(tt.argv0); got != tt.want {
			t.Errorf("botOfExecutable(%q) = %q, want %q", tt.argv0, got, tt.want)
		}
	}
}

// TestNamedBrain builds pbrain-kinrow and the random bot into one directory,
// copies the brain as pbrain-kinrow-random, and plays through pipes: the
// copy plays bot random, found beside the executable.
func TestNamedBrain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	dir := t.TempDir()
	for out, pkg := range map[string]string{"pbrain-kinrow-random": "./cmd/pbrain-kinrow", "kinrow-bot-random": "./bots/random"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, out), pkg)
		cmd.Dir = testbuild.Root()
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	tmp, err := os.MkdirTemp("", "kp") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(filepath.Join(dir, "pbrain-kinrow-random"))
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "KINROW_BOT_PATH=", "KINROW_LOG=warn")
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
