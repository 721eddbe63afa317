//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/internal/testkeyring"
	"golang.org/x/sys/unix"
)

// Issue 35: the kernel's shared state and surface. Each attack runs as in
// sandbox_e2e_test.go: with --sandbox=off, where it must work, and under
// the default sandbox (its seccomp filter and fresh session keyring),
// where it must not, the bot still playing its games.

// hostKeyDesc is the key the host's session keyring holds in these tests.
const hostKeyDesc = "kinrow-test-secret"

// Keyring: the host holds a key in its session keyring; the intruder
// lists and reads its session keyring's keys, and adds one.
func TestSandboxKeyring(t *testing.T) {
	forEachMode(t, offAndSandbox, func(t *testing.T, kind, mode string) {
		secret := "TOPSECRET-" + token(t)
		testkeyring.Hold(t, hostKeyDesc, secret)
		in := intrude(t, kind, mode, "keyring", map[string]string{"marker": token(t)}, nil)
		expect(t, mode, strings.Contains(in.line, secret), "read the host's session key", in)
		expect(t, mode, strings.Contains(in.line, "added covert key"), "add a key to its session keyring", in)
	})
}

// reportLines are every report of attack in the host's log (each bot
// process attacks once).
func reportLines(log, attack string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if line := reportLine(l, attack); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// intrudePair plays intruder against intruder at tic-tac-toe (two games),
// both copies attacking with attack and opts, copy N with marker=mN; it
// returns their reports.
func intrudePair(t *testing.T, mode, attack string, opts map[string]string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "pair.jsonl")
	args := []string{"match", "--rules", "tictactoe", "--bot", "intruder", "--bot", "intruder", "--games", "2",
		"--movetime", "5s", "--bot-start-timeout", "30s", "--out", out, "--format", "json", "--log-level", "debug",
		"--bot-opt", "intruder:attack=" + attack, "--bot-opt", "intruder#1:marker=m1", "--bot-opt", "intruder#2:marker=m2"}
	for k, v := range opts {
		args = append(args, "--bot-opt", "intruder:"+k+"="+v)
	}
	args = append(args, sandboxArgs(mode)...)
	cmd := kinrowCmd(t, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	lines := reportLines(stderr.String(), attack)
	if len(lines) < 2 {
		t.Fatalf("%d reports of %s, want one of each intruder; the host's log:\n%s", len(lines), attack, stderr.String())
	}
	t.Logf("%s: %s", mode, strings.Join(lines, "\n"))
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimSpace(string(data)), "\n") + 1; n != 2 {
		t.Errorf("%d games recorded, want 2", n)
	}
	for _, reason := range []string{`"forfeit"`, `"timeout"`, `"crash"`} {
		if strings.Contains(string(data), `"reason":`+reason) {
			t.Errorf("a game ended by %s:\n%s", reason, data)
		}
	}
	return lines
}

// A covert channel through the keyring: two intruders of one match (two
// entrants), each adding a key; one reads the other's.
func TestSandboxKeyringChannel(t *testing.T) {
	for _, mode := range offAndSandbox {
		t.Run(mode, func(t *testing.T) {
			if mode != modeOff {
				needSandbox(t)
			}
			testkeyring.Hold(t, hostKeyDesc, "TOPSECRET-"+token(t))
			lines := intrudePair(t, mode, "keyring", nil)
			joined := strings.Join(lines, "\n")
			crossed := strings.Contains(joined, `saw covert key "m1"`) || strings.Contains(joined, `saw covert key "m2"`)
			expect(t, mode, crossed, "read the other entrant's key", intrusion{line: joined})
		})
	}
}

// A covert channel through a lock: two intruders of one match flock the
// same system file; the one that comes second finds it locked.
func TestSandboxFlockChannel(t *testing.T) {
	for _, mode := range offAndSandbox {
		t.Run(mode, func(t *testing.T) {
			if mode != modeOff {
				needSandbox(t)
			}
			lines := intrudePair(t, mode, "flock", map[string]string{"secret": "/etc/passwd"})
			joined := strings.Join(lines, "\n")
			expect(t, mode, strings.Contains(joined, "locked by another process"), "see the other entrant's lock", intrusion{line: joined})
			expect(t, mode, strings.Contains(joined, "holds an exclusive flock"), "hold a lock on a system file", intrusion{line: joined})
		})
	}
}

// The host's lock: the host holds a flock on a system file every box
// sees; the intruder tries the same file and tells whether it is locked.
func TestSandboxFlockHost(t *testing.T) {
	const file = "/etc/passwd"
	forEachMode(t, offAndSandbox, func(t *testing.T, kind, mode string) {
		f, err := os.Open(file)
		if err != nil {
			t.Skip(err)
		}
		defer f.Close()
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			t.Skipf("flock %s: %v (another process holds it)", file, err)
		}
		in := intrude(t, kind, mode, "flock", map[string]string{"secret": file}, nil)
		expect(t, mode, in.got("flock"), "see or take a lock on "+file, in)
	})
}

// io_uring: the intruder makes a ring.
func TestSandboxIOUring(t *testing.T) {
	if b, err := os.ReadFile("/proc/sys/kernel/io_uring_disabled"); err == nil {
		if v, _ := strconv.Atoi(strings.TrimSpace(string(b))); v != 0 {
			t.Skipf("io_uring is disabled on this machine (kernel.io_uring_disabled=%d): the attack proves nothing", v)
		}
	}
	forEachMode(t, offAndSandbox, func(t *testing.T, kind, mode string) {
		in := intrude(t, kind, mode, "iouring", nil, nil)
		expect(t, mode, in.got("iouring"), "make an io_uring", in)
	})
}

// User namespaces: the intruder starts a child in a user namespace of its
// own, root there, which mounts tmpfs and cgroup2 and brings up a
// loopback.
func TestSandboxUserNamespace(t *testing.T) {
	forEachMode(t, offAndSandbox, func(t *testing.T, kind, mode string) {
		in := intrude(t, kind, mode, "userns", nil, nil)
		expect(t, mode, in.got("userns"), "make a user namespace", in)
		if mode == modeOff {
			for _, did := range []string{"did mount tmpfs", "did mount cgroup2", "did bring up lo"} {
				if !strings.Contains(in.line, did) {
					t.Errorf("with --sandbox=off the intruder's child could not %s: %s", strings.TrimPrefix(did, "did "), in.line)
				}
			}
		}
	})
}
