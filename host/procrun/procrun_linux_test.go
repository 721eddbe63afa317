package procrun

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The test binary doubles as the misbehaving bot: PROCRUN_HELPER says what
// it does.
func TestMain(m *testing.M) {
	switch os.Getenv("PROCRUN_HELPER") {
	case "":
		os.Exit(m.Run())
	case "hog": // allocate and touch memory until killed
		var keep [][]byte
		for {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	case "busy":
		for {
		}
	}
}

// containers lists the containers to test on this machine: the cgroup
// one where it can be made, and always the fallback.
func containers(t *testing.T) map[string]func(Config) (container, error) {
	m := map[string]func(Config) (container, error){
		"group": func(cfg Config) (container, error) {
			if err := subreaper(); err != nil {
				return nil, err
			}
			return &group{id: newID(), limit: cfg.Memory}, nil
		},
	}
	if h := sharedHierarchy(); h.v2 != "" {
		m["cgroup"] = func(cfg Config) (container, error) { return newCgroup(h, cfg) }
	} else {
		t.Logf("no cgroup test: %s", h.reason)
	}
	return m
}

// startWith starts cmd in the container mk makes (Start with a chosen
// container).
func startWith(t *testing.T, mk func(Config) (container, error), cmd *exec.Cmd, cfg Config) *Process {
	t.Helper()
	c, err := mk(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.prepare(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Process{cmd: cmd, c: c, cfg: cfg, pid: cmd.Process.Pid, exited: make(chan struct{})}
	if err := c.started(p.pid); err != nil {
		t.Fatal(err)
	}
	go p.reap()
	t.Cleanup(func() { p.Kill() })
	return p
}

// waitPidFile waits for a child to write its pid to path.
func waitPidFile(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && pid > 0 {
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

func alive(pid int) bool { return !zombie(pid) }

// TestKillEndsEscaped: a child escaped by setsid -f, and one by a double
// fork, die with the bot, whether the leader still runs, has exited, or
// is suspended.
func TestKillEndsEscaped(t *testing.T) {
	for name, mk := range containers(t) {
		for _, state := range []string{"running", "exited", "suspended"} {
			t.Run(name+"/"+state, func(t *testing.T) {
				dir := t.TempDir()
				// b: daemon(3)'s double fork, a new session and a fork in it.
				script := fmt.Sprintf(`setsid -f sh -c 'echo $$ > %[1]s/a; exec sleep 200'; (setsid sh -c '(sh -c "echo \$\$ > %[1]s/b; exec sleep 200" &)' &) ; `, dir)
				if state == "exited" {
					script += "exit 0"
				} else {
					script += "exec sleep 200"
				}
				p := startWith(t, mk, exec.Command("sh", "-c", script), Config{Name: "escaper"})
				a, b := waitPidFile(t, filepath.Join(dir, "a")), waitPidFile(t, filepath.Join(dir, "b"))
				switch state {
				case "exited":
					if !p.WaitExit(20 * time.Second) {
						t.Fatal("the leader did not exit")
					}
				case "suspended":
					if err := p.Suspend(); err != nil {
						t.Fatal(err)
					}
				}
				if !alive(a) || !alive(b) {
					t.Fatal("the escaped children are not running before Kill")
				}
				if !p.Kill() {
					t.Error("Kill reports processes left")
				}
				for _, pid := range []int{a, b} {
					if alive(pid) {
						t.Errorf("escaped child %d survives Kill", pid)
					}
				}
				if e := p.Ending(); !e.Exited || (state != "exited" && !strings.Contains(e.How, "killed")) {
					t.Errorf("Ending = %+v", e)
				}
			})
		}
	}
}

// TestSuspendStopsEscaped: while suspended, an escaped busy loop uses no
// CPU.
func TestSuspendStopsEscaped(t *testing.T) {
	for name, mk := range containers(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			self, _ := os.Executable()
			script := fmt.Sprintf(`setsid -f sh -c 'echo $$ > %s/a; exec env PROCRUN_HELPER=busy %s'; exec sleep 200`, dir, self)
			p := startWith(t, mk, exec.Command("sh", "-c", script), Config{Name: "spinner"})
			pid := waitPidFile(t, filepath.Join(dir, "a"))
			time.Sleep(100 * time.Millisecond)
			if err := p.Suspend(); err != nil {
				t.Fatal(err)
			}
			before := procCPU(t, pid)
			time.Sleep(500 * time.Millisecond)
			after := procCPU(t, pid)
			if after-before > 2 { // ticks of 10 ms
				t.Errorf("the escaped busy loop used %d ticks of CPU while suspended", after-before)
			}
			if err := p.Resume(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for procCPU(t, pid) == after && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if procCPU(t, pid) == after {
				t.Error("the busy loop did not run again after Resume")
			}
		})
	}
}

// procCPU reads a process's utime+stime in ticks.
func procCPU(t *testing.T, pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// TestCPU: the bot's CPU time, its children's included, is accounted.
func TestCPU(t *testing.T) {
	h := sharedHierarchy()
	if h.v2 == "" {
		t.Skipf("no cgroup: %s", h.reason)
	}
	self, _ := os.Executable()
	cmd := exec.Command("sh", "-c", "env PROCRUN_HELPER=busy "+self+" & exec sleep 200")
	p, err := Start(context.Background(), cmd, Config{Name: "busy", Sandbox: Sandbox{Mode: SandboxOff}}) // the test binary, as the child, is outside any box
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if d, ok := p.CPU(); ok && d >= 200*time.Millisecond {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	d, ok := p.CPU()
	t.Fatalf("CPU = %v, %v after 30 s of a busy child", d, ok)
}

// TestMemoryCap: a bot over its cap is killed and said to be, with its
// peak; the host lives on.
func TestMemoryCap(t *testing.T) {
	h := sharedHierarchy()
	if h.v2 == "" || (h.v1mem == "" && !exists(h.v2+"/memory.max")) {
		t.Skipf("no cgroup memory controller: %s %s", h.reason, h.memWhy)
	}
	self, _ := os.Executable()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "PROCRUN_HELPER=hog")
	const limit = 64 << 20
	p, err := Start(context.Background(), cmd, Config{Name: "hog", Memory: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if !p.WaitExit(60 * time.Second) {
		t.Fatal("the memory hog was not stopped")
	}
	e := p.Ending()
	if !e.OverMemory || e.Peak < limit/2 || e.Limit != limit {
		t.Errorf("Ending = %+v, want over its memory with a peak near %d", e, limit)
	}
}

func TestStartRefusesNegativeMemory(t *testing.T) {
	if _, err := Start(context.Background(), exec.Command("true"), Config{Name: "x", Memory: -1}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Start with a negative cap: %v", err)
	}
}

func TestDetect(t *testing.T) {
	c := Detect()
	t.Logf("containment: %s", c)
	if c.Kind == "" || !strings.Contains(c.String(), "kill all") {
		t.Errorf("Detect = %+v", c)
	}
}

// RemoveStale removes an empty cgroup of a host that is gone, and leaves
// a populated one (possibly another PID namespace's host) alone.
func TestRemoveStale(t *testing.T) {
	h := sharedHierarchy()
	if h.v2 == "" {
		t.Skipf("no cgroup: %s", h.reason)
	}
	const deadPid = 999999999 // above any pid_max
	empty := filepath.Join(h.v2, fmt.Sprintf("%s%d-%s", cgroupPrefix, deadPid, newID()))
	busy := filepath.Join(h.v2, fmt.Sprintf("%s%d-%s", cgroupPrefix, deadPid, newID()))
	for _, d := range []string{empty, busy} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		for i := 0; i < 100 && os.Remove(busy) != nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	if err := writeFile(filepath.Join(busy, "cgroup.procs"), strconv.Itoa(cmd.Process.Pid)); err != nil {
		t.Fatal(err)
	}
	removed := RemoveStale()
	if exists(empty) || !strings.Contains(strings.Join(removed, " "), empty) {
		t.Errorf("the empty stale cgroup was not removed (removed %v)", removed)
	}
	if !exists(busy) || !alive(cmd.Process.Pid) {
		t.Error("a populated cgroup (or its process) was touched")
	}
}

// TestSuspendIdle: a sleeping process is idle, a busy one is not;
// SuspendIdle suspends a busy bot all the same after its wait, and a
// Resume right after it leaves the bot running.
func TestSuspendIdle(t *testing.T) {
	self, _ := os.Executable()
	for name, mk := range containers(t) {
		t.Run(name, func(t *testing.T) {
			sleeper := startWith(t, mk, exec.Command("sleep", "200"), Config{Name: "sleeper"})
			var c idleChecker
			for end := time.Now().Add(20 * time.Second); !c.idle(sleeper.PID()); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("sleep 200 never looked idle")
				}
			}
			sleeper.SuspendIdle(time.Second, func(err error) { t.Error(err) })
			if err := sleeper.Resume(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
			if sleeper.Suspended() {
				t.Error("a Resume right after SuspendIdle left the bot suspended")
			}

			cmd := exec.Command(self)
			cmd.Env = append(os.Environ(), "PROCRUN_HELPER=busy")
			busy := startWith(t, mk, cmd, Config{Name: "busy", Sandbox: Sandbox{Mode: SandboxOff}}) // the test binary, as the child, is outside any box
			for end := time.Now().Add(20 * time.Second); c.idle(busy.PID()); time.Sleep(time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("a busy loop never looked busy")
				}
			}
			busy.SuspendIdle(50*time.Millisecond, func(err error) { t.Error(err) })
			for end := time.Now().Add(10 * time.Second); !busy.Suspended(); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("a busy bot was not suspended 10 s after SuspendIdle")
				}
			}
			time.Sleep(50 * time.Millisecond)
			before := procCPU(t, busy.PID())
			time.Sleep(300 * time.Millisecond)
			if after := procCPU(t, busy.PID()); after-before > 2 {
				t.Errorf("the busy loop used %d ticks of CPU while suspended", after-before)
			}
		})
	}
}

// TestSuspendBusy: a bot idle after its answer is never frozen (the
// freeze and thaw cost a fast game more than its moves), one that keeps a
// core busy is suspended soon after, and a Resume cancels the watch.
func TestSuspendBusy(t *testing.T) {
	self, _ := os.Executable()
	for name, mk := range containers(t) {
		t.Run(name, func(t *testing.T) {
			sleeper := startWith(t, mk, exec.Command("sleep", "200"), Config{Name: "sleeper"})
			if _, ok := sleeper.CPU(); !ok {
				t.Skip("the bot's CPU time is not measured here: SuspendBusy is SuspendIdle")
			}
			sleeper.SuspendBusy(2*time.Millisecond, time.Second, func(err error) { t.Error(err) })
			time.Sleep(300 * time.Millisecond)
			if sleeper.Suspended() {
				t.Error("an idle bot was suspended")
			}
			if err := sleeper.Resume(); err != nil {
				t.Fatal(err)
			}

			cmd := exec.Command(self)
			cmd.Env = append(os.Environ(), "PROCRUN_HELPER=busy")
			busy := startWith(t, mk, cmd, Config{Name: "busy", Sandbox: Sandbox{Mode: SandboxOff}}) // the test binary, as the child, is outside any box
			busy.SuspendBusy(2*time.Millisecond, time.Second, func(err error) { t.Error(err) })
			if err := busy.Resume(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			if busy.Suspended() {
				t.Error("a Resume right after SuspendBusy left the bot suspended")
			}
			busy.SuspendBusy(2*time.Millisecond, time.Second, func(err error) { t.Error(err) })
			for end := time.Now().Add(10 * time.Second); !busy.Suspended(); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("a busy bot was not suspended 10 s after SuspendBusy")
				}
			}
			time.Sleep(50 * time.Millisecond)
			before := procCPU(t, busy.PID())
			time.Sleep(300 * time.Millisecond)
			if after := procCPU(t, busy.PID()); after-before > 2 {
				t.Errorf("the busy loop used %d ticks of CPU while suspended", after-before)
			}
		})
	}
}

// TestSettleCountsBotCPU: Settle's wait is the bot's own CPU time, up to
// settleCap times it in wall time. A busy bot at nice 19 beside a busy
// loop on every core gets a sliver of CPU: the wait ends only once it has
// used d of CPU or at the wall-time cap, not after d of wall time (before,
// a Rapfi-like engine still busy with its last move under load was sent
// the next command too early and took it for junk).
func TestSettleCountsBotCPU(t *testing.T) {
	h := sharedHierarchy()
	if h.v2 == "" {
		t.Skipf("no cgroup (the test needs its CPU time in µs; /proc's comes in 10 ms ticks): %s", h.reason)
	}
	nice, err := exec.LookPath("nice")
	if err != nil {
		t.Skip("no nice to lower the bot's priority")
	}
	self, _ := os.Executable()
	cmd := exec.Command(nice, "-n", "19", self)
	cmd.Env = append(os.Environ(), "PROCRUN_HELPER=busy")
	p, err := Start(context.Background(), cmd, Config{Name: "busy", Sandbox: Sandbox{Mode: SandboxOff}}) // the test binary, as the child, is outside any box
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if d, ok := p.CPU(); ok && d > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the busy bot used no CPU in 20 s")
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() + 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // the scheduler sees the load
	const d = 20 * time.Millisecond
	cpu0, _ := p.CPU()
	start := time.Now()
	p.Settle(d)
	wall := time.Since(start)
	cpu1, _ := p.CPU()
	stop.Store(true)
	wg.Wait()
	used := cpu1 - cpu0
	t.Logf("Settle(%v): %v of wall time, the bot used %v of CPU", d, wall, used)
	if used < d && wall < settleCap*d {
		t.Errorf("Settle(%v) returned after %v of wall time with the busy bot at %v of CPU: want %v of its CPU or %v of wall time", d, wall, used, d, settleCap*d)
	}
	if wall > settleCap*d+2*time.Second {
		t.Errorf("Settle(%v) took %v: the wall-time cap is %v", d, wall, settleCap*d)
	}
}
