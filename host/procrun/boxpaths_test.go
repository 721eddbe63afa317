package procrun

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// boxPathsDir lays out a directory for the path checks: a working
// directory (the test's), a home ($HOME), records being written, links to
// /, to /proc and to the records, and directories a box may see.
func boxPathsDir(t *testing.T) (dir, records string) {
	t.Helper()
	dir = t.TempDir()
	for _, d := range []string{"work", "home/.pyenv", "out", "ok", "bot/weights"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	records = filepath.Join(dir, "out", "games.jsonl")
	if err := os.WriteFile(records, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"root":       "/",
		"up":         strings.Repeat("../", strings.Count(dir, "/")+2), // relative, resolving to /
		"proc":       "/proc",
		"homelink":   "home",
		"bot/rec":    records,
		"bot/shared": "../work",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(records, filepath.Join(dir, "ok", "hardlink")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Chdir(filepath.Join(dir, "work"))
	return dir, records
}

// Issue 35: a Read path is resolved before it is checked; what it resolves
// to is refused when it would show the box the host (its root, /proc,
// /sys, /dev, a home, the working directory, the shared temporary
// directories, the records being written, or a directory above them).
func TestCheckBind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the boxes are Linux's: these paths are a Linux host's")
	}
	dir, records := boxPathsDir(t)
	deny := []string{records}
	for _, tc := range []struct {
		path string
		why  string // "" : allowed
	}{
		{"/", "whole file system"},
		{filepath.Join(dir, "root"), "whole file system"},
		{filepath.Join(dir, "up"), "whole file system"},
		{filepath.Join(dir, "proc"), "the host's /proc"},
		{"/proc/1/root", "refused"},
		{"/proc/self", "the host's /proc"},
		{"/sys/fs/cgroup", "the host's /sys"},
		{"/dev", "the host's /dev"},
		{"/root", "a home directory"},
		{"/home", "a home directory"},
		{filepath.Join(dir, "home"), "a home directory"},
		{filepath.Join(dir, "homelink"), "a home directory"},
		{filepath.Join(dir, "work"), "working directory"},
		{filepath.Join(dir, "bot", "shared"), "working directory"},
		{dir, "refused: it holds"},
		{"/tmp", "refused: it"},
		{"/var/tmp", "shares"},
		{filepath.Join(dir, "out"), "records"},
		{records, "records"},
		{filepath.Join(dir, "bot", "rec"), "records"},
		{filepath.Join(dir, "ok", "hardlink"), "under another name"},
		{filepath.Join(dir, "ok"), ""},
		{filepath.Join(dir, "bot"), ""},
		{filepath.Join(dir, "bot", "weights"), ""},
		{filepath.Join(dir, "home", ".pyenv"), ""}, // inside a home: an interpreter's, named on purpose
		{"/usr/lib", ""},                           // a system directory: seen anyway
		{"relative", ""},
	} {
		err := CheckBind(tc.path, deny)
		var be *BindError
		switch {
		case tc.why == "" && err != nil:
			t.Errorf("CheckBind(%s): %v, want it allowed", tc.path, err)
		case tc.why != "" && (err == nil || !errors.As(err, &be) || !strings.Contains(err.Error(), tc.why)):
			t.Errorf("CheckBind(%s): %v, want refused: %s", tc.path, err, tc.why)
		case err != nil && !strings.Contains(err.Error(), "\""+tc.path+"\""):
			t.Errorf("CheckBind(%s): %v does not name the path as given", tc.path, err)
		}
	}
}

// The sandbox layer refuses what CheckBind refuses, for Read and Write
// paths alike, before any process starts; what it allows it lists.
func TestViewRefusesAndLists(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the boxes are Linux's: these paths are a Linux host's")
	}
	dir, records := boxPathsDir(t)
	for _, sb := range []Sandbox{
		{Read: []string{filepath.Join(dir, "root")}},
		{Read: []string{filepath.Join(dir, "up")}},
		{Write: []string{filepath.Join(dir, "home")}},
		{Read: []string{filepath.Join(dir, "out")}, Deny: []string{records}},
	} {
		if v, err := sb.View("/bin/true", 0); err == nil || !strings.HasPrefix(err.Error(), "sandbox: ") {
			t.Errorf("View(%+v) = %v, %v: want refused", sb, v.Lines(), err)
		}
	}
	sb := Sandbox{Read: []string{filepath.Join(dir, "bot"), filepath.Join(dir, "homelink", ".pyenv"), "/usr/lib"},
		Write: []string{filepath.Join(dir, "ok")}, WorkDir: filepath.Join(dir, "bot"), Deny: []string{records}}
	v, err := sb.View(filepath.Join(dir, "bot", "engine"), 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	lines := v.Lines() // the executable is inside bot, bound already
	t.Logf("box sees: %s", v)
	want := []string{
		"/tmp  writable, its own (tmpfs of 64 MiB; $HOME and $TMPDIR; gone with it)",
		"/proc  its own (its own processes only)",
		"/dev  its own (null, zero, full, random, urandom; /dev/shm)",
		filepath.Join(dir, "bot") + "  read-only",
		filepath.Join(dir, "homelink", ".pyenv") + " -> " + filepath.Join(dir, "home", ".pyenv") + "  link (as given)",
		filepath.Join(dir, "home", ".pyenv") + "  read-only (given as " + filepath.Join(dir, "homelink", ".pyenv") + ")",
		filepath.Join(dir, "ok") + "  writable",
		"network: none (a loopback of its own)",
		"working directory: " + filepath.Join(dir, "bot"),
	}
	if !strings.HasSuffix(lines[0], "  read-only (system directories)") || !strings.Contains(lines[0], "/usr") {
		t.Errorf("first line %q: want the system directories", lines[0])
	}
	if !slices.Equal(lines[1:], want) {
		t.Errorf("View lines:\n%s\nwant:\n%s", strings.Join(lines[1:], "\n"), strings.Join(want, "\n"))
	}
	read, write, private, links, tmp := v.binds()
	if !slices.Equal(read, []string{filepath.Join(dir, "bot"), filepath.Join(dir, "home", ".pyenv")}) ||
		!slices.Equal(write, []string{filepath.Join(dir, "ok")}) || len(private) != 0 || len(links) != 1 || tmp != 64<<20 {
		t.Errorf("binds: read %q, write %q, links %+v, tmp %d", read, write, links, tmp)
	}
}

func TestPasswdHomes(t *testing.T) {
	got := passwdHomes([]byte("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n" +
		"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nalice:x:1000:1000::/home/alice:/bin/sh\n" +
		"#bob:x:1001:1001::/home/bob:/bin/sh\nbad line\ncarol:x:1002:1002::relative:/bin/sh\ndave:x:1003:1003::/srv/dave/:/bin/sh\n" +
		"eve:x:1004:1004::/home/alice:/bin/sh\nroot2:x:0:0::/:/bin/sh\n"))
	if want := []string{"/root", "/home/alice", "/srv/dave"}; !slices.Equal(got, want) {
		t.Errorf("passwdHomes = %q, want %q", got, want)
	}
}

func FuzzPasswdHomes(f *testing.F) {
	f.Add([]byte("root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/sh\n"))
	f.Add([]byte(":::::::\n\x00:x:1000:0::/\x00:\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, h := range passwdHomes(data) {
			if !filepath.IsAbs(h) || h == "/" || filepath.Clean(h) != h {
				t.Fatalf("home %q: want an absolute clean path other than /", h)
			}
		}
	})
}
