package procrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// platformEnv is what a bot's minimal environment keeps beyond the common
// names.
var platformEnv []string

func envKey(name string) string { return name }

// sharedHierarchy finds where the host can make cgroups, once per process:
// it is a fact about the machine, not state.
var sharedHierarchy = sync.OnceValue(findHierarchy)

// subreaper makes the host a child subreaper once, for the fallback.
var subreaper = sync.OnceValue(func() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
})

// closeInherited marks every descriptor past the standard streams
// close-on-exec, once per process: the host's own are already, but those it
// inherited from whoever started it are not, and would reach every bot.
var closeInherited = sync.OnceValue(func() error {
	return unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
})

// Detect says which containment the bots started now get.
func Detect() Containment {
	h := sharedHierarchy()
	if h.v2 != "" {
		c := Containment{Kind: "cgroup v2", Where: h.v2, Freeze: true, KillAll: true, CPU: true}
		switch {
		case controllerOn(h.v2, "memory"):
			c.Memory = "cgroup v2 memory.max"
		case h.v1mem != "":
			c.Memory = "cgroup v1 memory (" + h.v1mem + ")"
		default:
			c.Memory = "RLIMIT_AS (" + h.memWhy + ")"
		}
		switch {
		case controllerOn(h.v2, "pids"):
			c.Tasks = "cgroup v2 pids.max"
		case h.v1pids != "":
			c.Tasks = "cgroup v1 pids (" + h.v1pids + ")"
		default:
			c.TasksWhy = h.pidsWhy
		}
		switch {
		case controllerOn(h.v2, "cpu"):
			c.CPUQuota = "cgroup v2 cpu.max"
		case h.v1cpu != "":
			c.CPUQuota = "cgroup v1 cpu (" + h.v1cpu + ")"
		default:
			c.CPUQuotaWhy = h.cpuWhy
		}
		c.FileSize = "RLIMIT_FSIZE"
		return c
	}
	c := Containment{Kind: "process group + child subreaper", Why: h.reason, Freeze: true, KillAll: true, CPU: true, Memory: "RLIMIT_AS", FileSize: "RLIMIT_FSIZE",
		TasksWhy: h.pidsWhy, CPUQuotaWhy: h.cpuWhy}
	if err := subreaper(); err != nil {
		c.Kind = "process group"
		c.KillAll, c.Freeze = false, false
		c.Why += fmt.Sprintf("; PR_SET_CHILD_SUBREAPER: %v", err)
	}
	return c
}

func newContainer(cfg Config) (container, error) {
	_ = closeInherited() // Linux before 5.11 refuses the flag: descriptors stay as they are
	h := sharedHierarchy()
	if h.v2 != "" {
		c, err := newCgroup(h, cfg)
		if err == nil {
			if cfg.Memory > 0 && c.memDir == "" && !exists(c.dir+"/memory.max") {
				return &rlimited{container: c, limit: cfg.Memory}, nil
			}
			return c, nil
		}
		// A cgroup that could be made a moment ago cannot now (the host
		// was moved?): fall back rather than refuse the bot.
	}
	_ = subreaper()
	return &group{id: newID(), limit: cfg.Memory}, nil
}

// sysAttr returns cmd's process attributes, made if missing, with the
// attributes every bot gets: a process group of its own, SIGKILL when the
// host dies.
func sysAttr(cmd *exec.Cmd) *syscall.SysProcAttr {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	return cmd.SysProcAttr
}

// rlimited caps a cgroup-held bot's memory with RLIMIT_AS where no memory
// controller serves.
type rlimited struct {
	container
	limit int64
}

func (r *rlimited) started(pid int) error {
	if err := r.container.started(pid); err != nil {
		return err
	}
	return setRlimitAS(pid, r.limit)
}

func setRlimitAS(pid int, limit int64) error {
	if limit <= 0 {
		return nil
	}
	lim := unix.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	if err := unix.Prlimit(pid, unix.RLIMIT_AS, &lim, nil); err != nil {
		return fmt.Errorf("cap the bot's address space (RLIMIT_AS): %w", err)
	}
	return nil
}

// group is the fallback container: the bot's process group, every process
// marked with its id in the environment, the host a child subreaper.
type group struct {
	id    string
	pid   int
	limit int64
}

func (g *group) prepare(cmd *exec.Cmd) error {
	sysAttr(cmd)
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, IDEnv+"="+g.id)
	return nil
}

func (g *group) started(pid int) error {
	g.pid = pid
	return setRlimitAS(pid, g.limit)
}

// members lists the live processes of the bot: its process group, and
// every process carrying its marker.
func (g *group) members() []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	marker := []byte(IDEnv + "=" + g.id + "\x00")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == g.pid {
			continue
		}
		pgid, _ := syscall.Getpgid(pid)
		if pgid == g.pid {
			pids = append(pids, pid)
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(append(env, 0), marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func (g *group) signal(sig syscall.Signal) error {
	err := syscall.Kill(-g.pid, sig)
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	for _, pid := range g.members() {
		_ = syscall.Kill(pid, sig)
	}
	return nil
}

func (g *group) suspend() error { return g.signal(syscall.SIGSTOP) }
func (g *group) resume() error  { return g.signal(syscall.SIGCONT) }

func (g *group) kill() error {
	err := g.signal(syscall.SIGKILL)
	g.reap()
	return err
}

// reap collects the marked processes that came back to the host (a child
// subreaper) as zombies; the leader is exec.Cmd.Wait's.
func (g *group) reap() {
	for _, pid := range g.members() {
		if ppid(pid) == os.Getpid() {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// procStat returns the fields of /proc/PID/stat after the command name
// (which is in parentheses and may itself hold spaces and parentheses):
// state first, then ppid, ... (proc(5), from field 3 on).
func procStat(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 { // not a stat line (the process is gone, or a kernel oddity)
		return nil, false
	}
	return strings.Fields(string(b[i+1:])), true
}

func ppid(pid int) int {
	f, ok := procStat(pid)
	if !ok || len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

func (g *group) cpu() (time.Duration, bool) {
	f, ok := procStat(g.pid)
	if !ok || len(f) < 15 {
		return 0, false
	}
	var ticks int64
	for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
		n, _ := strconv.ParseInt(f[k], 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100), true
}

func (g *group) memory() (bool, bool, int64) { return false, false, 0 }

// empty looks twice, emptyRecheck apart: a process in the middle of an
// execve may show no environment, so no marker, for a moment.
func (g *group) empty() bool {
	for look := 0; look < 2; look++ {
		if look > 0 {
			time.Sleep(emptyRecheck)
		}
		g.reap()
		for _, pid := range g.members() {
			if !zombie(pid) {
				return false
			}
		}
	}
	return true
}

// emptyRecheck is how long group.empty waits before its second look.
const emptyRecheck = 10 * time.Millisecond

// zombie reports whether pid is a zombie, dead, or gone.
func zombie(pid int) bool {
	f, ok := procStat(pid)
	return !ok || len(f) == 0 || f[0] == "Z" || f[0] == "X"
}

func (g *group) release() {}

// runOpenFile makes cmd execute the open file f, not what its path names
// by then: f is the bot's descriptor 3, executed through /proc/self/fd/3
// (left open: a script's interpreter opens it by that name).
func runOpenFile(cmd *exec.Cmd, f *os.File) {
	cmd.ExtraFiles = append([]*os.File{f}, cmd.ExtraFiles...)
	cmd.Path = "/proc/self/fd/3"
}
