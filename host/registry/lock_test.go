package registry

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/internal/testbuild"
)

const sumA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestParseLock(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string]string
		err        string
	}{
		{"good", "# c\n\n" + sumA + "  kinrow-bot-a\n" + strings.ToUpper(sumA) + " *sub/b\r\n", map[string]string{"kinrow-bot-a": sumA, "sub/b": sumA}, ""},
		{"one space", sumA + " kinrow-bot-a\n", nil, "line 1"},
		{"short sum", "abc  x\n", nil, `line 1 "abc  x": want a SHA-256 (64 hex digits)`},
		{"not hex", strings.Repeat("z", 64) + "  x\n", nil, "is not 64 hex digits"},
		{"no name", sumA + "  \n", nil, "line 1"},
		{"twice", sumA + "  x\n" + strings.Repeat("1", 64) + "  x\n", nil, "line 2: x is listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLock([]byte(tc.text))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseLock = %v, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("ParseLock = %v, %v; want %v", got, err, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s: %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func FuzzParseLock(f *testing.F) {
	f.Add([]byte(sumA + "  kinrow-bot-a\n# x\n"))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sums, err := ParseLock(b)
		if err != nil {
			return
		}
		for name, sum := range sums {
			if len(sum) != 64 || name == "" {
				t.Fatalf("ParseLock accepted %q → %q", name, sum)
			}
		}
	})
}

// A lock file written by WriteLocks admits the bots as they are and
// refuses one changed since, and one it does not list; --verify-bots
// without a lock file refuses.
func TestLockRefusesChangedBinary(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "kinrow-bot-x")
	if err := os.WriteFile(bot, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkLockedClosed("x", dir, bot, true); err == nil || !strings.Contains(err.Error(), "--verify-bots needs") {
		t.Errorf("no lock, required: %v", err)
	}
	if err := checkLockedClosed("x", dir, bot, false); err != nil {
		t.Errorf("no lock, not required: %v", err)
	}
	written, err := WriteLocks(botpath.Finder{Dirs: []string{dir}})
	if err != nil || len(written) != 1 {
		t.Fatalf("WriteLocks = %v, %v", written, err)
	}
	if err := checkLockedClosed("x", dir, bot, true); err != nil {
		t.Errorf("locked and unchanged: %v", err)
	}
	if err := os.WriteFile(bot, []byte("#!/bin/sh\necho evil\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkLockedClosed("x", dir, bot, false); err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("changed: %v", err)
	}
	other := filepath.Join(dir, "kinrow-bot-y")
	if err := os.WriteFile(other, []byte("y"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkLockedClosed("y", dir, other, false); err == nil || !strings.Contains(err.Error(), "does not list") {
		t.Errorf("not listed: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, LockFile), []byte("bad line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkLockedClosed("x", dir, bot, false); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed lock: %v", err)
	}
}

// checkLockedClosed is checkLocked for tests that only want its verdict.
func checkLockedClosed(name, dir, exe string, required bool) error {
	f, err := checkLocked(name, dir, exe, required)
	if f != nil {
		f.Close()
	}
	return err
}

// Issue 23: --verify-bots hashed the file by its path and then started
// the path, so a binary swapped in between ran under the locked name (2
// of 6 trials). The loader now starts the very file it hashed: a swap
// right after the check changes nothing, sandboxed or not.
func TestVerifiedBotRunsWhatWasHashed(t *testing.T) {
	for _, mode := range []procrun.SandboxMode{procrun.SandboxAuto, procrun.SandboxOff} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			good := filepath.Join(dir, "kinrow-bot-x")
			copyFile(t, filepath.Join(binDir, "kinrow-bot-random"), good)
			if _, err := WriteLocks(botpath.Finder{Dirs: []string{dir}}); err != nil {
				t.Fatal(err)
			}
			l, err := New(Config{Finder: botpath.Finder{Dirs: []string{dir}}, Verify: true,
				Containment: pluginbot.Containment{Sandbox: mode}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(l.Close)
			e, err := l.cfg.Finder.Lookup("x")
			if err != nil {
				t.Fatal(err)
			}
			exe, err := l.verify(e)
			if err != nil || exe == nil {
				t.Fatalf("verify = %v, %v; want the hashed file", exe, err)
			}
			// The swap, between the check and the start.
			evil := filepath.Join(dir, "evil")
			copyFile(t, filepath.Join(binDir, "kinrow-bot-hang"), evil)
			if err := os.Rename(evil, good); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			b, err := l.startPlugin(ctx, e, "x", nil, 0, exe)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if name := b.Info().Name; name != "random" {
				t.Errorf("the started bot says it is %q, want the locked random", name)
			}
			// And a fresh load refuses the swapped file.
			if _, err := l.Load(ctx, "x", "x", nil); err == nil || !strings.Contains(err.Error(), "refused") {
				t.Errorf("Load of the swapped file: %v, want refused", err)
			}
		})
	}
}

// copyFile copies an executable.
func copyFile(t *testing.T, from, to string) { testbuild.CopyExecutable(t, from, to) }
