//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/internal/testbuild"
)

// sleepArg is attack.SleepArg (internal/testbots/intruder/attack is not
// a dependency of the host's tests): the forks attack's children's
// argument for a marker of digits.
func sleepArg(marker string) string { return "3600." + marker }

// digitsToken is a fresh marker of digits.
func digitsToken(t *testing.T) string {
	t.Helper()
	return strconv.FormatUint(uint64(time.Now().UnixNano())%1e12, 10) + strconv.Itoa(os.Getpid()%1000)
}

// A fork bomb, bounded: the intruder starts up to 2,000 sleeping
// children. Under --bot-pids 64 it gets fewer than 64 (its own threads
// count), by the bot's cgroup (pids.max, v2 or v1) or, under the sandbox
// as root, RLIMIT_NPROC of its box uid; and none of them is left after the
// match. With the default (256) it gets fewer than 256.
func TestLimitsForkBomb(t *testing.T) {
	c := procrunDetect()
	if !strings.Contains(c, "tasks: ") || strings.Contains(c, "tasks: none") {
		t.Skipf("no tasks limit here (%s)", c)
	}
	got := regexp.MustCompile(`forks: got (\d+) of`)
	for _, tc := range []struct {
		name  string
		kind  string
		mode  string
		args  []string
		limit int
	}{
		{"plugin/off/64", "plugin", modeOff, []string{"--bot-pids", "64"}, 64},
		{"plugin/sandbox/64", "plugin", modeSandbox, []string{"--bot-pids", "64"}, 64},
		{"plugin/sandbox/default", "plugin", modeSandbox, nil, 256},
		{"engine/sandbox/64", "engine", modeSandbox, []string{"--bot-pids", "64"}, 64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mode != modeOff {
				needSandbox(t)
			}
			marker := digitsToken(t)
			arg := sleepArg(marker)
			t.Cleanup(func() {
				for _, pid := range markedProcesses(arg) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			in := intrudeHost(t, tc.kind, "", tc.mode, "forks", map[string]string{"marker": marker}, nil, tc.args)
			if say := fmt.Sprintf("tasks: %d (--bot-pids): in force by", tc.limit); !strings.Contains(in.log, say) {
				t.Errorf("the start-up log does not say %q", say)
			}
			m := got.FindStringSubmatch(in.line)
			if m == nil {
				t.Fatalf("the intruder got no child: %s", in.line)
			}
			if n, _ := strconv.Atoi(m[1]); n >= tc.limit {
				t.Errorf("under a tasks limit of %d the intruder started %d children: %s", tc.limit, n, in.line)
			}
			left := markedProcesses(arg)
			for end := time.Now().Add(5 * time.Second); len(left) > 0 && time.Now().Before(end); {
				time.Sleep(20 * time.Millisecond)
				left = markedProcesses(arg)
			}
			if len(left) > 0 {
				t.Errorf("%d of the intruder's children are left after the match: %v", len(left), left[:min(len(left), 10)])
			}
		})
	}
}

// A file as big as the disk, bounded: the intruder writes a 32 MiB file
// into a host directory (no sandbox) and into its /tmp (the sandbox);
// under --bot-file-size 8M no file grows past 8 MiB.
func TestLimitsFileSize(t *testing.T) {
	for _, mode := range []string{modeOff, modeSandbox} {
		t.Run(mode, func(t *testing.T) {
			if mode != modeOff {
				needSandbox(t)
			}
			opts := map[string]string{"count": "32"}
			if mode == modeOff {
				opts["dir"] = t.TempDir()
			}
			in := intrudeHost(t, "plugin", "", mode, "fill", opts, nil, []string{"--bot-file-size", "8M"})
			m := regexp.MustCompile(`fill: got wrote (\d+) bytes`).FindStringSubmatch(in.line)
			if m == nil {
				t.Fatalf("the intruder wrote nothing: %s", in.line)
			}
			if n, _ := strconv.ParseInt(m[1], 10, 64); n > 8<<20 {
				t.Errorf("under --bot-file-size 8M the intruder wrote a file of %s bytes: %s", m[1], in.line)
			}
			if !strings.Contains(in.line, "file too large") {
				t.Errorf("the intruder's write was not refused as too large: %s", in.line)
			}
		})
	}
}

// A memory hog without --bot-memory: the default cap (1 GiB where a cgroup
// holds it) stops it, and it forfeits for memory; the host lives on.
func TestLimitsMemoryByDefault(t *testing.T) {
	if c := procrunDetect(); !strings.Contains(c, "memory cap: cgroup") {
		t.Skipf("no cgroup memory controller here, so no memory cap by default (%s)", c)
	}
	h := startHost(t)
	// A loaded machine takes seconds to hand out 1 GiB: the move's 60 s
	// leave the cap to stop it, not the clock.
	if took := h.oForfeits("60000", "hog mb_per_step=64"); took > 50*time.Second {
		t.Errorf("the hog was stopped after %v: not by its cap", took)
	}
	res := h.ok("kinrow-result")
	if !strings.Contains(res, "forfeit") || !strings.Contains(res, "over its memory cap of 1 GiB (peak") {
		t.Errorf("kinrow-result = %q, want a forfeit over the default cap of 1 GiB", res)
	}
	h.ok("kinrow-load o random")
}

// --bot-cpus 0.1 with --bot-suspend=false: the spinner's busy child and
// busy goroutine (two CPUs' worth of demand) get at most a tenth of a CPU
// between them; the child is watched for 2 s of wall time and may use at
// most 0.5 s (the quota allows 0.2 s).
func TestLimitsCPUQuota(t *testing.T) {
	if c := procrunDetect(); strings.Contains(c, "cpu quota: none") {
		t.Skipf("no CPU quota here (%s)", c)
	}
	h := startHost(t, "--sandbox=off", "--bot-suspend=false", "--bot-cpus", "0.1")
	pidfile := filepath.Join(h.tmp, "child.pid")
	h.ok("rules tictactoe")
	h.ok("kinrow-movetime 5000")
	h.ok("kinrow-load o spinner pidfile=" + pidfile)
	h.ok("play x b2")
	h.ok("genmove o")
	child := testbuild.ReadPid(t, pidfile)
	c0, ok := procCPU(child)
	if !ok {
		t.Fatal("the spinner's busy child is gone")
	}
	time.Sleep(2 * time.Second)
	c1, _ := procCPU(child)
	if d := c1 - c0; d > 500*time.Millisecond {
		t.Errorf("under --bot-cpus 0.1 the spinner's busy child used %v of CPU in 2 s", d)
	} else {
		t.Logf("the spinner's busy child used %v of CPU in 2 s", d)
	}
}

// kinrow doctor names every limit and says whether it is in force.
func TestLimitsDoctor(t *testing.T) {
	out, err := kinrowCmd(t, "doctor").CombinedOutput()
	if err != nil {
		t.Fatalf("kinrow doctor: %v\n%s", err, out)
	}
	for _, name := range []string{"tasks", "memory", "file size", "CPU fairness", "CPU quota", "syscall filter"} {
		re := regexp.MustCompile(`(?m)^  ` + name + `: +\S.*: (in force by|NOT in force|off)`)
		if !re.Match(out) {
			t.Errorf("kinrow doctor says nothing of the %s limit:\n%s", name, out)
		}
	}
}
