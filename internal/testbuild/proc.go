package testbuild

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// ChromiumOrSkip returns a headless-capable Chromium (as Chromium finds
// it), or skips the test saying how to get one.
func ChromiumOrSkip(t testing.TB) string {
	t.Helper()
	p, ok := Chromium()
	if !ok {
		t.Skip("no Chromium on this machine: the browser tests skip (make test-browser installs Debian's chromium and runs them)")
	}
	return p
}

// CopyExecutable copies the executable from to to (mode 0755).
func CopyExecutable(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// ReadPid reads the pid a test bot wrote to pidfile.
func ReadPid(t testing.TB, pidfile string) int {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
