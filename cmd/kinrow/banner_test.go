package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A person at a terminal is greeted; a GTP controller on pipes sees only
// the answers to what it sent, on stdout and stderr alike.
func TestBannerOnATerminalOnly(t *testing.T) {
	cmd := kinrowCmd(t, "--log-level", "warn")
	cmd.Stdin = strings.NewReader("protocol_version\nquit\n")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow on pipes: %v\n%s", err, stderr.String())
	}
	if stdout.String() != "= 2\n\n=\n\n" || stderr.String() != "" {
		t.Errorf("on pipes: stdout %q, stderr %q; want only the two answers", stdout.String(), stderr.String())
	}

	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) (util-linux) to give kinrow a terminal: the terminal half skips")
	}
	k := kinrowCmd(t)
	term := exec.Command(script, "-qc", k.Path+" --log-level warn", "/dev/null")
	term.Env = k.Env
	in, err := term.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	term.Stdout, term.Stderr = &out, &out
	if err := term.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the greeting comes before any input
	in.Write([]byte("quit\r\n"))
	done := make(chan error, 1)
	go func() { done <- term.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		term.Process.Kill()
		t.Fatalf("kinrow on a terminal did not quit; it wrote %q", out.String())
	}
	in.Close()
	if !strings.Contains(out.String(), "Type help for the commands, quit to leave.") {
		t.Errorf("on a terminal: no greeting in %q", out.String())
	}
}
