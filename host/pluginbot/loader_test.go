package pluginbot

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/internal/testbuild"
)

// shortTemp returns a fresh directory with a short path (unix socket paths
// are limited), removed at the end of the test.
var shortTemp = testbuild.ShortTemp

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// livePID starts a process that lives until the end of the test.
func livePID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

func TestStaleSocketDirsAreRemoved(t *testing.T) {
	tmp := shortTemp(t)
	t.Setenv("TMPDIR", tmp)
	dead, live := deadPID(t), livePID(t)
	mk := func(name string, dir bool) string {
		p := filepath.Join(tmp, name)
		if !dir {
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "plugin123"), nil, 0o600); err != nil { // a left socket
			t.Fatal(err)
		}
		return p
	}
	stale := mk(fmt.Sprintf("kinrow-bots-%d-4242", dead), true)
	keep := []string{
		mk(fmt.Sprintf("kinrow-bots-%d-4243", live), true),         // a live host's
		mk(fmt.Sprintf("kinrow-bots-%d-4244", os.Getppid()), true), // another live one
		mk("kinrow-bots-123456789", true),                          // the old naming: owner unknown
		mk(fmt.Sprintf("kinrow-bots-%d-", dead), true),             // not the pattern
		mk("kinrow-bots-12x4-4245", true),                          // not a pid
		mk(fmt.Sprintf("kinrow-bots-%d-4246", dead), false),        // a file, not a directory
		mk(fmt.Sprintf("other-%d-4247", dead), true),               // not ours
	}
	l, err := newTestLoader(loaderConfig{Dirs: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale directory %s is still there (%v)", stale, err)
	}
	for _, p := range keep {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	own := l.SocketDir()
	if pid, ok := socketDirOwner(filepath.Base(own)); !ok || pid != os.Getpid() || filepath.Dir(own) != tmp {
		t.Errorf("the loader's socket directory %s is not %s/kinrow-bots-%d-*", own, tmp, os.Getpid())
	}
	l.Close()
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Errorf("Close left %s (%v)", own, err)
	}
}

func TestSocketDirOwner(t *testing.T) {
	tests := []struct {
		name string
		pid  int
		ok   bool
	}{
		{"kinrow-bots-1234-567", 1234, true},
		{"kinrow-bots-1-x", 1, true},
		{"kinrow-bots-1234-", 0, false},
		{"kinrow-bots-1234", 0, false},
		{"kinrow-bots--567", 0, false},
		{"kinrow-bots-0-567", 0, false},
		{"kinrow-bots-012-567", 0, false}, // never written so
		{"kinrow-bots-12a4-567", 0, false},
		{"kinrow-bots-99999999999999999999-1", 0, false},
		{"kinrow-bot-1234-567", 0, false},
	}
	for _, tc := range tests {
		if pid, ok := socketDirOwner(tc.name); pid != tc.pid || ok != tc.ok {
			t.Errorf("socketDirOwner(%q) = %d, %v; want %d, %v", tc.name, pid, ok, tc.pid, tc.ok)
		}
	}
}

// socketDirsOf lists the socket directories of host pid in dir.
func socketDirsOf(dir string, pid int) []string {
	m, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("kinrow-bots-%d-*", pid)))
	return m
}

// startServe starts the real bin/kinrow serve with TMPDIR tmp and waits for
// its socket directory.
func startServe(t *testing.T, tmp string) (*exec.Cmd, io.WriteCloser, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "kinrow"), "serve")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "KINROW_BOT_PATH=")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if dirs := socketDirsOf(tmp, cmd.Process.Pid); len(dirs) == 1 {
			return cmd, in, dirs[0]
		}
	}
	t.Fatalf("kinrow serve (pid %d) made no socket directory in %s", cmd.Process.Pid, tmp)
	return nil, nil, ""
}

// TestKilledHostsSocketDirIsRemovedByTheNext kills a real kinrow serve with
// SIGKILL, which leaves its socket directory, and starts another: the new
// one removes it.
func TestKilledHostsSocketDirIsRemovedByTheNext(t *testing.T) {
	tmp := shortTemp(t)
	first, _, firstDir := startServe(t, tmp)
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	if _, err := os.Stat(firstDir); err != nil {
		t.Fatalf("after kill -9 the socket directory is gone already (%v): the test shows nothing", err)
	}
	second, in, secondDir := startServe(t, tmp)
	if _, err := os.Stat(firstDir); !os.IsNotExist(err) {
		t.Errorf("the killed host's socket directory %s is still there (%v)", firstDir, err)
	}
	in.Close() // end of input: the host exits and removes its own
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("kinrow serve did not exit at the end of its input")
	}
	if _, err := os.Stat(secondDir); !os.IsNotExist(err) {
		t.Errorf("kinrow serve left its socket directory %s (%v)", secondDir, err)
	}
}

// FuzzSocketDirOwner checks that a name is read as an owner's only when it
// is exactly kinrow-bots-PID-SOMETHING with PID a positive number.
func FuzzSocketDirOwner(f *testing.F) {
	for _, s := range []string{"kinrow-bots-1234-567", "kinrow-bots-1234", "kinrow-bots--1", "kinrow-bots-0-1", "kinrow-bots-+5-x", "kinrow-bots-007-x", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		pid, ok := socketDirOwner(name)
		if !ok {
			if pid != 0 {
				t.Errorf("socketDirOwner(%q) = %d, false", name, pid)
			}
			return
		}
		rest, found := strings.CutPrefix(name, fmt.Sprintf("kinrow-bots-%d-", pid))
		if pid <= 0 || !found || rest == "" {
			t.Errorf("socketDirOwner(%q) = %d, true", name, pid)
		}
	})
}
