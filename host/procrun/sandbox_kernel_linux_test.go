package procrun

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/host/procrun/boxinit/seccomp"
	"github.com/kinrow/kinrow/internal/testkeyring"
	"golang.org/x/sys/unix"
)

// testKeyDesc is the description of the key the kernel-surface tests hold
// in their session keyring.
const testKeyDesc = "kinrow-test-secret"

// TestSandboxKernel: what a boxed program reaches of the kernel's shared
// state. It holds a key in its session keyring and runs a script, in a
// box made each way (as root) and with the sandbox off, that reads the
// keys it can see, makes user namespaces, reads the box's limit on them,
// and holds a flock on a system file every box sees; meanwhile the test
// takes a lock on that file itself. With the sandbox off each of them
// works (the script proves something); in a box the filter and the fresh
// keyring stop each.
func TestSandboxKernel(t *testing.T) {
	needBox(t)
	for _, tools := range []string{"/usr/bin/flock", "/usr/bin/unshare"} {
		if _, err := os.Stat(tools); err != nil {
			t.Skipf("util-linux's %s is needed: %v", tools, err)
		}
	}
	host, err := os.ReadFile("/proc/sys/user/max_user_namespaces")
	if err != nil {
		t.Skipf("no user namespace limit here: %v", err)
	}
	for _, tc := range []struct {
		name string
		sb   Sandbox
	}{
		{"off", Sandbox{Mode: SandboxOff}},
		{"userns", Sandbox{}},
		{"rootns", Sandbox{rootNS: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sb.rootNS && os.Geteuid() != 0 {
				t.Skip("not root: a box without a user namespace needs root")
			}
			testSandboxKernel(t, tc.sb, strings.TrimSpace(string(host)))
		})
	}
}

func testSandboxKernel(t *testing.T, sb Sandbox, hostMaxNS string) {
	const lockFile = "/etc/passwd"
	secret := "TOPSECRET-" + filepath.Base(t.TempDir())
	testkeyring.Hold(t, testKeyDesc, secret)
	w := t.TempDir()
	sb.Write = []string{w}
	script := `
echo "seccomp: $(grep '^Seccomp:' /proc/self/status | cut -f2)"
echo "keys: $(grep -c ` + testKeyDesc + ` /proc/keys)"
echo "keylist: $(wc -c < /proc/keys)"
echo "userns: $(unshare -U true 2>&1 && echo made)"
echo "maxns: $(cat /proc/sys/user/max_user_namespaces)"
exec 9<` + lockFile + `
flock -x 9 && echo flocked > ` + w + `/flocked
cat >/dev/null
`
	var hostLock error
	out := runBoxed(t, script, sb, func(p *Process) {
		deadline := time.Now().Add(15 * time.Second)
		for {
			if _, err := os.Stat(filepath.Join(w, "flocked")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				hostLock = errors.New("the script never said it held its lock")
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		f, err := os.Open(lockFile)
		if err != nil {
			hostLock = err
			return
		}
		defer f.Close()
		hostLock = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	})
	t.Logf("%s, the host's flock: %v", out, hostLock)
	off := sb.Mode == SandboxOff
	check := func(key string, ok func(string) bool, want string) {
		t.Helper()
		if got := lineAfter(out, key); !ok(got) {
			t.Errorf("%s %q, want %s", key, got, want)
		}
	}
	is := func(v string) func(string) bool { return func(s string) bool { return s == v } }
	if off {
		// The escapes work without the box (else the test proves nothing).
		check("keys:", is("1"), "1: the host's key seen")
		check("userns:", is("made"), "a user namespace made")
		if !errors.Is(hostLock, unix.EWOULDBLOCK) {
			t.Errorf("the host's flock on %s while the script holds one: %v, want EWOULDBLOCK", lockFile, hostLock)
		}
		return
	}
	check("seccomp:", is("2"), "2 (a filter)")
	check("keys:", is("0"), "0: the host's key out of sight")
	check("keylist:", is("0"), "0: /proc/keys hidden")
	check("userns:", func(s string) bool { return strings.Contains(s, "Operation not permitted") }, "refused with EPERM")
	if sb.rootNS {
		// The box shares the machine's first user namespace: its limit
		// is the host's and must be left alone.
		check("maxns:", is(hostMaxNS), "the host's "+hostMaxNS)
	} else {
		check("maxns:", is("0"), "0 in the box's own user namespace")
	}
	if hostLock != nil {
		t.Errorf("the host's flock on %s while the boxed script holds one: %v, want it taken", lockFile, hostLock)
	}
	if b, _ := os.ReadFile("/proc/sys/user/max_user_namespaces"); strings.TrimSpace(string(b)) != hostMaxNS {
		t.Errorf("the host's max_user_namespaces is %q now, was %s", b, hostMaxNS)
	}
}

// BenchmarkBoxStart: a box made, /bin/true executed in it and waited for
// (the init's whole work, the filter and keyring included), against the
// same without the sandbox.
func BenchmarkBoxStart(b *testing.B) {
	if p := sandboxProbe(); p.level == boxNone {
		b.Skipf("no sandbox here: %s", p.status)
	}
	for _, sb := range []Sandbox{{Mode: SandboxOff}, {}} {
		b.Run("sandbox="+sb.Mode.String(), func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				p, err := Start(ctx, exec.Command("/bin/true"), Config{Name: "bench", Sandbox: sb})
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Wait(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSandboxKernelPrograms: what a real program does with locks and
// threads still works under the filter: Python's threads, a process pool
// (fork), fcntl.flock and lockf, and SQLite writing a database in /tmp;
// the sqlite3 shell and a JVM where installed.
func TestSandboxKernelPrograms(t *testing.T) {
	needBox(t)
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skipf("no %s: %v", py, err)
	}
	script := py + ` - <<'EOF'
import fcntl, sqlite3, threading, multiprocessing, os
with open("/tmp/lockme", "w") as f:
    fcntl.flock(f, fcntl.LOCK_EX); fcntl.lockf(f, fcntl.LOCK_EX); fcntl.flock(f, fcntl.LOCK_UN)
db = sqlite3.connect("/tmp/t.db")
db.execute("create table t(x)")
with db:
    db.executemany("insert into t values (?)", [(i,) for i in range(100)])
n = db.execute("select count(*) from t").fetchone()[0]
out = []
ts = [threading.Thread(target=lambda: out.append(1)) for _ in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
with multiprocessing.Pool(2) as p:
    sq = sum(p.map(abs, range(10)))
print("python:", n, len(out), sq)
EOF
if [ -x /usr/bin/sqlite3 ]; then echo "sqlite3: $(/usr/bin/sqlite3 /tmp/s.db 'create table a(x); insert into a values (7); select x from a;' 2>&1)"; fi
if [ -x /usr/bin/java ]; then echo "java: $(/usr/bin/java -version 2>&1 | head -1 | cut -d' ' -f1)"; fi
`
	out := runBoxed(t, script, Sandbox{}, nil)
	t.Logf("%s", out)
	if got := lineAfter(out, "python:"); got != "100 4 45" {
		t.Errorf("python under the filter: %q, want %q", got, "100 4 45")
	}
	if got := lineAfter(out, "sqlite3:"); strings.Contains(out, "sqlite3:") && got != "7" {
		t.Errorf("sqlite3 under the filter: %q, want 7", got)
	}
	if got := lineAfter(out, "java:"); strings.Contains(out, "java:") && got != "openjdk" {
		t.Errorf("java -version under the filter: %q, want openjdk", got)
	}
}

// TestSandboxStatusKernelParts: the sandbox's account (kinrow doctor, the
// start-up line) names the filter and the keyring where the probe box
// loaded them, and the filter as not in force, with why, where the kernel
// cannot load it.
func TestSandboxStatusKernelParts(t *testing.T) {
	needBox(t)
	st := SandboxDetect().String()
	if err := seccomp.Available(); err != nil {
		if !strings.Contains(st, "not in force") || !strings.Contains(st, "seccomp") {
			t.Errorf("no filter here (%v), but the sandbox says %q", err, st)
		}
		return
	}
	for _, part := range []string{"seccomp filter", "own session keyring"} {
		if !strings.Contains(st, part) {
			t.Errorf("the sandbox says %q, without %q", st, part)
		}
	}
}
