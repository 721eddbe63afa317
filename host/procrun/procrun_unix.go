//go:build unix && !linux

package procrun

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

var platformEnv []string

func envKey(name string) string { return name }

// Detect says which containment the bots started now get.
func Detect() Containment {
	return Containment{Kind: "process group", Why: "cgroups are Linux's", Memory: ""}
}

// RemoveStale has nothing to remove where there are no cgroups.
func RemoveStale() []string { return nil }

func newContainer(Config) (container, error) { return &pgroup{}, nil }

// pgroup holds a bot in a process group of its own: what a bot forks in a
// new session escapes it.
type pgroup struct{ pid int }

func (g *pgroup) prepare(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	return nil
}

func (g *pgroup) started(pid int) error { g.pid = pid; return nil }

func (g *pgroup) signal(sig syscall.Signal) error {
	err := syscall.Kill(-g.pid, sig)
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

func (g *pgroup) suspend() error              { return g.signal(syscall.SIGSTOP) }
func (g *pgroup) resume() error               { return g.signal(syscall.SIGCONT) }
func (g *pgroup) kill() error                 { return g.signal(syscall.SIGKILL) }
func (g *pgroup) cpu() (time.Duration, bool)  { return 0, false }
func (g *pgroup) memory() (bool, bool, int64) { return false, false, 0 }
func (g *pgroup) empty() bool                 { return syscall.Kill(-g.pid, 0) != nil }
func (g *pgroup) release()                    {}

// Frozen is false where there are no cgroups.
func Frozen(int) bool { return false }

// runOpenFile leaves cmd as it is: without /proc/self/fd the host starts
// the bot by its path (a file swapped after its checksum is not stopped
// here; docs/RELIABILITY.md).
func runOpenFile(*exec.Cmd, *os.File) {}
