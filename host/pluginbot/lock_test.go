package pluginbot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/botpath"
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
	if err := checkLocked("x", dir, bot, true); err == nil || !strings.Contains(err.Error(), "--verify-bots needs") {
		t.Errorf("no lock, required: %v", err)
	}
	if err := checkLocked("x", dir, bot, false); err != nil {
		t.Errorf("no lock, not required: %v", err)
	}
	written, err := WriteLocks(botpath.Finder{Dirs: []string{dir}})
	if err != nil || len(written) != 1 {
		t.Fatalf("WriteLocks = %v, %v", written, err)
	}
	if err := checkLocked("x", dir, bot, true); err != nil {
		t.Errorf("locked and unchanged: %v", err)
	}
	if err := os.WriteFile(bot, []byte("#!/bin/sh\necho evil\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkLocked("x", dir, bot, false); err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("changed: %v", err)
	}
	other := filepath.Join(dir, "kinrow-bot-y")
	if err := os.WriteFile(other, []byte("y"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkLocked("y", dir, other, false); err == nil || !strings.Contains(err.Error(), "does not list") {
		t.Errorf("not listed: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, LockFile), []byte("bad line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkLocked("x", dir, bot, false); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed lock: %v", err)
	}
}
