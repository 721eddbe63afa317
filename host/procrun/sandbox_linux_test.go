package procrun

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// needBox skips t where no box can be made here, saying why.
func needBox(t *testing.T) {
	t.Helper()
	if p := sandboxProbe(); p.level == boxNone {
		t.Skipf("no sandbox on this machine (user namespaces refused and not root): %s", p.status)
	}
}

// runBoxed runs a shell script under cfg with its output on a pipe (as the
// host gives its bots), and returns the output and the process (already
// exited unless the script waits on its stdin, which is closed when
// before returns).
func runBoxed(t *testing.T, script string, sb Sandbox, before func(p *Process)) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	in, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, w, w
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := Start(ctx, cmd, Config{Name: "boxed", Sandbox: sb})
	w.Close()
	in.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if before != nil {
		before(p)
	}
	inW.Close()
	out, _ := io.ReadAll(r)
	if err := p.Wait(ctx); err != nil {
		t.Logf("the script ended: %v", err)
	}
	return string(out)
}

// lineAfter returns what follows key on the line it starts in out.
func lineAfter(out, key string) string {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, key); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// TestSandboxHolds: what a boxed program sees of the host, table-driven
// over the parts of the sandbox; --sandbox=off shows each of them open.
// As root, both ways of making the box: in a user namespace, and without
// one (the init switches to the box uid itself, as where the kernel
// refuses user namespaces).
func TestSandboxHolds(t *testing.T) {
	needBox(t)
	t.Run("userns", func(t *testing.T) { testSandboxHolds(t, Sandbox{}) })
	t.Run("rootns", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("not root: a box without a user namespace needs root")
		}
		testSandboxHolds(t, Sandbox{rootNS: true})
	})
}

func testSandboxHolds(t *testing.T, sb Sandbox) {
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "secret")
	if err := os.WriteFile(secret, []byte("hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
echo "pid: $$"
echo "ppid: $PPID"
echo "procs: $(ls /proc | grep -c '^[0-9]')"
echo "secret: $(cat ` + secret + ` 2>&1)"
echo "root: $(touch /kinrow-probe 2>/dev/null && echo writable || echo read-only)"
echo "usr: $(touch /usr/kinrow-probe 2>/dev/null && echo writable || echo read-only)"
echo "tmp: $(touch "$TMPDIR/x" && echo writable)"
echo "cwd: $(pwd)"
echo "net: $(grep -c ':' /proc/net/dev)"
echo "sys: $(test -e /sys/fs/cgroup && echo visible || echo absent)"
echo "cgroup: $(cat /proc/self/cgroup | grep '^0::')"
echo "caps: $(grep CapEff /proc/self/status | tr -d '\t' | cut -d: -f2)"
echo "nnp: $(grep NoNewPrivs /proc/self/status | tr -d '\t' | cut -d: -f2)"
echo "fds: $(ls /proc/self/fd | tr '\n' ' ')"
echo "stdout: ok" > /dev/stdout
cat >/dev/null
`
	var hostUID string
	box := runBoxed(t, script, sb, func(p *Process) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID()) + "/status")
		hostUID = strings.Fields(lineAfter(string(b), "Uid:") + " ?")[0]
	})
	off := runBoxed(t, script, Sandbox{Mode: SandboxOff}, nil)
	t.Logf("boxed:\n%s\noff:\n%s", box, off)
	for _, tc := range []struct {
		key, boxed string // what the box shows ("" : anything but off's)
		contains   bool
	}{
		{"pid:", "1", false},
		{"ppid:", "0", false},
		{"procs:", "", false},
		{"secret:", "No such file or directory", true},
		{"root:", "read-only", false},
		{"usr:", "read-only", false},
		{"tmp:", "writable", false},
		{"cwd:", "/tmp", false},
		{"net:", "1", false},
		{"sys:", "absent", false},
		{"cgroup:", "0::/", false},
		{"caps:", "0000000000000000", false},
		{"nnp:", "1", false},
		{"fds:", "0 1 2 3", false}, // 3 is ls's own reading of the directory
	} {
		got, was := lineAfter(box, tc.key), lineAfter(off, tc.key)
		switch {
		case tc.boxed == "" && got == was:
			t.Errorf("%s the same in the box as outside it: %q", tc.key, got)
		case tc.boxed != "" && tc.contains && !strings.Contains(got, tc.boxed):
			t.Errorf("%s %q in the box, want it to say %q", tc.key, got, tc.boxed)
		case tc.boxed != "" && !tc.contains && got != tc.boxed:
			t.Errorf("%s %q in the box, want %q (outside: %q)", tc.key, got, tc.boxed, was)
		}
	}
	if lineAfter(box, "stdout:") != "ok" {
		t.Errorf("the boxed program cannot reopen its stdout (a pipe of the host's) by /dev/stdout")
	}
	if lineAfter(off, "secret:") != "hunter2" {
		t.Errorf("outside the box the secret reads %q: the test shows nothing", lineAfter(off, "secret:"))
	}
	if procs, _ := strconv.Atoi(lineAfter(box, "procs:")); procs > 5 { // sh, the command substitution, ls and grep
		t.Errorf("the box sees %d processes, want its own only", procs)
	}
	if os.Geteuid() == 0 {
		if uid, _ := strconv.Atoi(hostUID); uid < BoxUIDBase {
			t.Errorf("the boxed process runs as uid %q on the host, want a box uid from %d", hostUID, BoxUIDBase)
		}
	} else if hostUID != strconv.Itoa(os.Getuid()) {
		t.Errorf("not root: the boxed process runs as uid %q, want the host's %d", hostUID, os.Getuid())
	}
}

// TestSandboxPaths: a Read path is seen read-only at its place (through a
// symbolic link too), a Write path writable, and the host's other files
// not at all.
func TestSandboxPaths(t *testing.T) {
	needBox(t)
	base := t.TempDir()
	ro := filepath.Join(base, "ro")
	rw := filepath.Join(base, "rw")
	hidden := filepath.Join(base, "hidden")
	for _, d := range []string{ro, rw, hidden} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(ro, "data"), filepath.Join(hidden, "data")} {
		if err := os.WriteFile(f, []byte("data\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(ro, link); err != nil {
		t.Fatal(err)
	}
	script := `
echo "ro: $(cat ` + ro + `/data)"
echo "ro-write: $(touch ` + ro + `/new 2>/dev/null && echo writable || echo refused)"
echo "link: $(cat ` + link + `/data)"
echo "rw: $(echo made > ` + rw + `/made && echo writable)"
echo "hidden: $(cat ` + hidden + `/data 2>&1 || true)"
`
	out := runBoxed(t, script, Sandbox{Read: []string{link}, Write: []string{rw}}, nil)
	t.Log(out)
	for key, want := range map[string]string{"ro:": "data", "ro-write:": "refused", "link:": "data", "rw:": "writable"} {
		if got := lineAfter(out, key); got != want {
			t.Errorf("%s %q, want %q", key, got, want)
		}
	}
	if got := lineAfter(out, "hidden:"); !strings.Contains(got, "No such file") {
		t.Errorf("hidden: %q, want no such file", got)
	}
	if b, err := os.ReadFile(filepath.Join(rw, "made")); err != nil || string(b) != "made\n" {
		t.Errorf("what the box wrote in its Write path: %q, %v", b, err)
	}
}

// TestSandboxRunsTheVerifiedFile: with Sandbox.Exe, the open file runs,
// not what its path names by the time the bot starts (issue 23: a binary
// swapped between the checksum and the start ran under the locked name).
func TestSandboxRunsTheVerifiedFile(t *testing.T) {
	for _, mode := range []SandboxMode{SandboxAuto, SandboxOff} {
		t.Run(mode.String(), func(t *testing.T) {
			if mode == SandboxAuto {
				needBox(t)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "bot")
			if err := os.WriteFile(path, []byte("#!/bin/sh\necho good\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			exe, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer exe.Close()
			// The swap: a new file renamed over the checked one.
			evil := filepath.Join(dir, "evil")
			if err := os.WriteFile(evil, []byte("#!/bin/sh\necho evil\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(evil, path); err != nil {
				t.Fatal(err)
			}
			r, w, _ := os.Pipe()
			cmd := exec.Command(path)
			cmd.Stdout, cmd.Stderr = w, w
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := Start(ctx, cmd, Config{Name: "verified", Sandbox: Sandbox{Mode: mode, Exe: exe}})
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Kill()
			out, _ := io.ReadAll(r)
			if strings.TrimSpace(string(out)) != "good" {
				t.Errorf("ran %q, want the verified file's \"good\"", out)
			}
		})
	}
}

// TestSandboxRefusesWhatItCannotReach: a program the box cannot open is a
// start error naming it, not a crash later.
func TestSandboxStartErrors(t *testing.T) {
	needBox(t)
	cmd := exec.Command(filepath.Join(t.TempDir(), "missing"))
	_, err := Start(context.Background(), cmd, Config{Name: "missing"})
	if err == nil || !strings.Contains(err.Error(), "missing") || !strings.Contains(err.Error(), "sandbox") {
		t.Errorf("Start of a missing program: %v, want a sandbox error naming it", err)
	}
}

func TestParseSandboxMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want SandboxMode
		err  bool
	}{
		{"", SandboxAuto, false}, {"auto", SandboxAuto, false}, {"require", SandboxRequire, false},
		{"OFF", SandboxOff, false}, {"none", SandboxOff, false}, {"maybe", SandboxAuto, true},
	} {
		got, err := ParseSandboxMode(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseSandboxMode(%q) = %v, %v", tc.in, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), "auto") {
			t.Errorf("the error does not say what is accepted: %v", err)
		}
	}
}

func TestSandboxStatusString(t *testing.T) {
	for _, tc := range []struct {
		s    SandboxStatus
		want string
	}{
		{SandboxStatus{Full: true, Parts: []string{"a", "b"}}, "full (a, b)"},
		{SandboxStatus{Parts: []string{"a"}, Missing: []string{"c"}}, "partial (a); not in force: c"},
		{SandboxStatus{Missing: []string{"c"}}, "none; not in force: c"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
