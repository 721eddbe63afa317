package procrun

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The rlimits a bot gets: RLIMIT_FSIZE always; RLIMIT_NPROC only where
// its uid is its own (a root host's box), never on a uid it shares with
// the host.
func TestRlimits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mode  SandboxMode
		nproc bool
	}{
		{"sandbox", SandboxAuto, os.Geteuid() == 0},
		{"off", SandboxOff, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mode != SandboxOff {
				needBox(t)
			}
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			in, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			// Without the sandbox the limits are set just after the start:
			// the script waits for its stdin to close.
			cmd := exec.Command("/bin/sh", "-c", "read x; cat /proc/self/limits")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = in, w, w
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := Start(ctx, cmd, Config{Name: "limited", Limits: Limits{Pids: 77, FileSize: 5 << 20}, Sandbox: Sandbox{Mode: tc.mode}})
			w.Close()
			in.Close()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Kill()
			inW.Close()
			out, _ := io.ReadAll(r)
			_ = p.Wait(ctx)
			fsize := strings.Fields(lineAfter(string(out), "Max file size"))
			if len(fsize) < 2 || fsize[0] != "5242880" || fsize[1] != "5242880" {
				t.Errorf("Max file size %q, want 5242880 both ways\n%s", fsize, out)
			}
			nproc := strings.Fields(lineAfter(string(out), "Max processes"))
			if got := len(nproc) > 0 && nproc[0] == "77"; got != tc.nproc {
				t.Errorf("Max processes %q: RLIMIT_NPROC set %v, want %v", nproc, got, tc.nproc)
			}
		})
	}
}

// Negative limits are refused, naming the limit.
func TestStartRefusesNegativeLimits(t *testing.T) {
	for _, l := range []Limits{{Pids: -1}, {FileSize: -1}, {CPUs: -0.5}} {
		_, err := Start(context.Background(), exec.Command("/bin/true"), Config{Name: "x", Limits: l})
		if err == nil || !strings.Contains(err.Error(), "limit") && !strings.Contains(err.Error(), "quota") {
			t.Errorf("%+v: %v", l, err)
		}
	}
}
