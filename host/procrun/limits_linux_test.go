package procrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// The bot's cgroups hold its limits (pids.max, the CPU quota) in the v2
// cgroup or, in hybrid mode, in v1 cgroups it joined as it started; all
// are gone after Kill, and an empty v1 one of a dead host is removed by
// RemoveStale.
func TestLimitCgroups(t *testing.T) {
	h := sharedHierarchy()
	if h.v2 == "" {
		t.Skipf("no cgroup: %s", h.reason)
	}
	p, err := Start(context.Background(), exec.Command("sleep", "60"), Config{Name: "limited", Limits: Limits{Pids: 16, CPUs: 0.5}, Sandbox: Sandbox{Mode: SandboxOff}})
	if err != nil {
		t.Fatal(err)
	}
	cg := p.c.(*cgroup)
	for _, tc := range []struct {
		parent, v2file, v1file, want string
	}{
		{h.v1pids, "pids.max", "pids.max", "16"},
		{h.v1cpu, "cpu.max", "cpu.cfs_quota_us", "50000"},
	} {
		file := filepath.Join(cg.dir, tc.v2file)
		if tc.parent != "" {
			file = filepath.Join(tc.parent, filepath.Base(cg.dir), tc.v1file)
			procs, _ := os.ReadFile(filepath.Join(filepath.Dir(file), "cgroup.procs"))
			if !slices.Contains(strings.Fields(string(procs)), strconv.Itoa(p.PID())) {
				t.Errorf("the bot %d is not in %s (%q)", p.PID(), filepath.Dir(file), procs)
			}
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Logf("no %s here: %v", file, err)
			continue
		}
		if got := strings.Fields(string(b)); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s = %q, want %s", file, b, tc.want)
		}
	}
	dirs := append([]string{cg.dir}, cg.v1...)
	if !p.Kill() {
		t.Fatal("Kill left something")
	}
	for _, d := range dirs {
		if exists(d) {
			t.Errorf("%s is left after Kill", d)
		}
	}

	for _, parent := range []string{h.v1pids, h.v1cpu} {
		if parent == "" {
			continue
		}
		stale := filepath.Join(parent, fmt.Sprintf("%s%d-%s", cgroupPrefix, 999999999, newID()))
		if err := os.Mkdir(stale, 0o755); err != nil {
			t.Fatal(err)
		}
		RemoveStale()
		if exists(stale) {
			t.Errorf("the stale %s was not removed", stale)
			_ = os.Remove(stale)
		}
	}
}
