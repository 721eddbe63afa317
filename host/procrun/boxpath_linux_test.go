package procrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/kinrow/kinrow/host/procrun/boxinit"
)

// TestSandboxPrivate: a Private directory is a tmpfs of the bot's own in
// its box, at the path it is told: it writes at most PrivateSize there and
// nothing reaches the host's directory at that path; the host reaches what
// it made through OpenPath, which follows none of its symbolic links. With
// the sandbox off the bot writes into the host's directory (the control).
// As root, both ways of making the box.
func TestSandboxPrivate(t *testing.T) {
	t.Run("off", func(t *testing.T) { testSandboxPrivate(t, Sandbox{Mode: SandboxOff}) })
	t.Run("userns", func(t *testing.T) {
		needBox(t)
		testSandboxPrivate(t, Sandbox{})
	})
	t.Run("rootns", func(t *testing.T) {
		needBox(t)
		if os.Geteuid() != 0 {
			t.Skip("not root: a box without a user namespace needs root")
		}
		testSandboxPrivate(t, Sandbox{rootNS: true})
	})
}

func testSandboxPrivate(t *testing.T, sb Sandbox) {
	dir := filepath.Join(t.TempDir(), "sockets")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	sb.Private = []string{dir}
	const tries = 4 << 20
	script := `d=` + dir + `
head -c 4194304 /dev/zero > "$d/fill" 2>/dev/null
echo "size: $(wc -c < "$d/fill")"
echo "mode: $(stat -c %a "$d")"
ln -s / "$d/link"
touch "$d/done"
cat >/dev/null
`
	var fill, link, through, done error
	var fillSize int64
	var linkMode uint32
	out := runBoxed(t, script, sb, func(p *Process) {
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			f, err := p.OpenPath(filepath.Join(dir, "done"))
			if done = err; err == nil {
				f.Close()
				break
			}
		}
		stat := func(name string) (unix.Stat_t, error) {
			var st unix.Stat_t
			f, err := p.OpenPath(filepath.Join(dir, name))
			if err != nil {
				return st, err
			}
			defer f.Close()
			return st, unix.Fstat(int(f.Fd()), &st)
		}
		var st unix.Stat_t
		st, fill = stat("fill")
		fillSize = st.Size
		st, link = stat("link")
		linkMode = st.Mode & unix.S_IFMT
		_, through = stat("link/etc/passwd")
	})
	t.Logf("the script:\n%s", out)
	if done != nil {
		t.Fatalf("the host never reached the script's files: %v", done)
	}
	if fill != nil || link != nil {
		t.Fatalf("OpenPath: %v; %v", fill, link)
	}
	if linkMode != unix.S_IFLNK {
		t.Errorf("OpenPath of a link opened what it points at (mode %o), not the link", linkMode)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sb.Mode == SandboxOff {
		if fillSize != tries || len(ents) == 0 {
			t.Errorf("with the sandbox off the bot wrote %d bytes, the host's directory holds %d entries; want %d bytes there", fillSize, len(ents), tries)
		}
		return
	}
	if through == nil || !strings.Contains(through.Error(), "symbolic link, which is not followed") {
		t.Errorf("OpenPath through the bot's link to its root: %v, want it refused", through)
	}
	if fillSize > boxinit.PrivateSize {
		t.Errorf("the bot wrote %d bytes into its private directory, over its %d", fillSize, boxinit.PrivateSize)
	}
	if got := lineAfter(out, "mode:"); got != "700" {
		t.Errorf("the private directory's mode is %q, want 700", got)
	}
	if len(ents) != 0 {
		t.Errorf("the host's directory at the private path holds %d entries, want none", len(ents))
	}
}

// BenchmarkOpenPath: the host opening a path as a bot sees it, in its box
// (walked from its root) and without a box (the host's path), in one run.
func BenchmarkOpenPath(b *testing.B) {
	for _, tc := range []struct {
		name string
		sb   Sandbox
	}{{"off", Sandbox{Mode: SandboxOff}}, {"box", Sandbox{}}} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.sb.Mode != SandboxOff && sandboxProbe().level == boxNone {
				b.Skip("no sandbox here")
			}
			dir := filepath.Join(b.TempDir(), "sockets")
			if err := os.Mkdir(dir, 0o777); err != nil {
				b.Fatal(err)
			}
			tc.sb.Private = []string{dir}
			cmd := exec.Command("/bin/sh", "-c", `touch "`+dir+`/s"; exec sleep 60`)
			p, err := Start(context.Background(), cmd, Config{Name: "bench", Sandbox: tc.sb})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Kill()
			path := filepath.Join(dir, "s")
			for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
				if f, err := p.OpenPath(path); err == nil {
					f.Close()
					break
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f, err := p.OpenPath(path)
				if err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}
