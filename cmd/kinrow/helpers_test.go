package main

// Test helpers shared by the end-to-end tests: starting bin/kinrow with
// its environment, with pipes, and waiting for it to end.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// shortTempDir is a new directory with a short path (unix socket paths are
// limited), removed when the test ends.
func shortTempDir(t *testing.T, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// kinrowIn is bin/kinrow with args, run with TMPDIR tmp, the bots of
// botPath only (none: those beside bin/kinrow) and KINROW_LOG logEnv,
// marked as this package's (KINROW_E2E: checkNoBotProcesses finds its
// bots).
func kinrowIn(tmp, botPath, logEnv string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(binDir, "kinrow"), args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "KINROW_BOT_PATH="+botPath, "KINROW_LOG="+logEnv, "KINROW_E2E="+binDir)
	return cmd
}

// startPiped starts cmd with pipes to its stdin and from its stdout (set
// cmd.Stderr before).
func startPiped(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser) {
	t.Helper()
	in, inErr := cmd.StdinPipe()
	out, outErr := cmd.StdoutPipe()
	if err := errors.Join(inErr, outErr); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return in, out
}

// waitOrKill waits up to 10 s for exited (cmd's end), else kills cmd and
// fails the test: what did not exit after its stdin closed.
func waitOrKill(t *testing.T, cmd *exec.Cmd, exited <-chan error, what string) {
	t.Helper()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Errorf("%s did not exit after its stdin closed", what)
	}
}

// waited is a channel that gets cmd.Wait's error.
func waited(cmd *exec.Cmd) <-chan error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return done
}

// checkNoneLeft waits up to within for list to find no process left, then
// fails the test naming the kind (e.g. "bot processes") and those left.
func checkNoneLeft(t *testing.T, kind string, within time.Duration, list func() []string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		left := list()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s left running: %v", kind, left)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kinrowRun runs bin/kinrow with args (as kinrowCmd) and returns its
// stdout, stderr and exit status.
func kinrowRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := kinrowCmd(t, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}
