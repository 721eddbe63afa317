package procrun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Config is what a bot's container holds it to.
type Config struct {
	// Name names the bot in errors.
	Name string
	// Memory caps the memory of the bot and its descendants, in bytes; 0
	// leaves it uncapped.
	Memory int64
	// Limits are the bot's other limits.
	Limits Limits
	// Sandbox is what the bot may reach of the host (on by default).
	Sandbox Sandbox
}

// Limits are what a bot may use beyond memory, with everything it started;
// a zero field sets no limit. DefaultLimits are the host's defaults.
type Limits struct {
	// Pids caps how many tasks (processes and threads) the bot may have at
	// once: pids.max of its cgroup (v2, else v1 in hybrid mode), and, where
	// the bot runs as a uid of its own (a root host's sandbox), RLIMIT_NPROC
	// of that uid as a second wall.
	Pids int
	// FileSize caps the size of any file the bot writes, in bytes
	// (RLIMIT_FSIZE: a write past it fails with EFBIG after SIGXFSZ).
	FileSize int64
	// CPUs caps the bot's CPU time per second of wall time, in CPUs (0.5:
	// half of one CPU; 2: two CPUs): cpu.max of its cgroup, else the v1 cpu
	// controller's CFS quota.
	CPUs float64
}

// The default limits: what a contest judge sets for every program it runs.
const (
	// DefaultPids is the default tasks limit: room for a JVM's or a
	// multi-threaded engine's threads, not for a fork bomb.
	DefaultPids = 256
	// DefaultFileSize is the default file size limit, the size of the
	// box's private /tmp.
	DefaultFileSize = 256 << 20
	// DefaultMemory is the default memory cap where a cgroup can hold it
	// (DefaultMemoryCap).
	DefaultMemory = 1 << 30
)

// DefaultLimits are the limits every bot gets unless the host is told
// otherwise (--bot-pids, --bot-file-size); no CPU quota (--bot-cpus): the
// side not to move is suspended instead.
func DefaultLimits() Limits {
	return Limits{Pids: DefaultPids, FileSize: DefaultFileSize}
}

// check refuses negative limits.
func (l Limits) check() error {
	switch {
	case l.Pids < 0:
		return fmt.Errorf("tasks limit %d is negative", l.Pids)
	case l.FileSize < 0:
		return fmt.Errorf("file size limit %d is negative", l.FileSize)
	case l.CPUs < 0 || l.CPUs != l.CPUs:
		return fmt.Errorf("CPU quota %v is not a positive number of CPUs", l.CPUs)
	}
	return nil
}

// KillTimeout bounds how long Kill waits for the bot's processes to go.
const KillTimeout = 3 * time.Second

// IDEnv is the environment variable marking every process of a bot with
// its container's id (used to find escaped processes where no cgroup can
// be made).
const IDEnv = "KINROW_BOT_ID"

// Ending is how a bot ended.
type Ending struct {
	Exited bool   // the leader process has exited
	How    string // "exit status 3", "signal: killed", "exited normally"
	// OverMemory is set when the bot was killed for going over its memory
	// cap (the kernel's OOM killer in its cgroup).
	OverMemory bool
	// HitMemory is set once the bot has reached its cap at all (the kernel
	// refused it memory, or killed it).
	HitMemory bool
	// Peak is the most memory the bot used, in bytes, where known (0
	// otherwise).
	Peak int64
	// Limit is the memory cap (0: none).
	Limit int64
}

// Process is one bot started by Start.
type Process struct {
	cmd    *exec.Cmd
	c      container
	cfg    Config
	pid    int
	exited chan struct{}

	mu        sync.Mutex
	waitErr   error
	suspended bool
	killed    bool
	gen       uint64     // bumped by every Suspend, Resume and SuspendIdle: cancels a pending SuspendIdle
	killMu    sync.Mutex // one Kill at a time (go-plugin and the host may both call it)
}

// container is one platform's way of holding a bot.
type container interface {
	// prepare sets up cmd before it starts (process attributes).
	prepare(cmd *exec.Cmd) error
	// started takes in the started leader.
	started(pid int) error
	suspend() error
	resume() error
	// kill ends every process of the bot; the leader may be gone already.
	kill() error
	// cpu is the CPU time of the bot and its descendants, false if unknown.
	cpu() (time.Duration, bool)
	// memory says whether the bot was killed over its cap, whether it hit
	// its cap at all, and its peak.
	memory() (over, hit bool, peak int64)
	// empty reports whether no process of the bot is left.
	empty() bool
	// release frees the container once empty.
	release()
}

// Start starts cmd (its Path, Args, Dir, Env and standard streams set by
// the caller) in a container of its own under cfg. The caller must not
// call cmd.Start or cmd.Wait; Wait and Exited do. ctx bounds the start.
func Start(ctx context.Context, cmd *exec.Cmd, cfg Config) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	if cfg.Memory < 0 {
		return nil, fmt.Errorf("start %s: memory cap %d is negative", cfg.Name, cfg.Memory)
	}
	if err := cfg.Limits.check(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	b, err := sandboxFor(cmd, cfg)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	c, err := newContainer(cfg)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	if b != nil {
		if err := b.prepare(cmd); err != nil {
			b.close()
			c.release()
			return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
		}
	} else if cfg.Sandbox.Exe != nil {
		runOpenFile(cmd, cfg.Sandbox.Exe)
	}
	if err := c.prepare(cmd); err != nil {
		if b != nil {
			b.close()
		}
		c.release()
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	if err := cmd.Start(); err != nil {
		if b != nil {
			b.close()
		}
		c.release()
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	p := &Process{cmd: cmd, c: c, cfg: cfg, pid: cmd.Process.Pid, exited: make(chan struct{})}
	if b != nil {
		b.startedChild()
	}
	err = c.started(p.pid)
	if err == nil {
		// On the box's init, before it is let go: what it executes, and all
		// that starts, inherit them.
		err = setRlimits(p.pid, cfg.Limits, b != nil && b.ownUID())
	}
	if err == nil && b != nil {
		err = b.release(ctx)
	} else if b != nil {
		b.close()
	}
	if err != nil {
		_ = c.kill()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		c.release()
		return nil, fmt.Errorf("start %s: %w", cfg.Name, err)
	}
	go p.reap()
	return p, nil
}

// reap waits for the process to end, keeps what Wait returned and closes
// exited.
func (p *Process) reap() {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.waitErr = err
	p.mu.Unlock()
	close(p.exited)
}

// PID is the leader's process id.
func (p *Process) PID() int { return p.pid }

// Exited is closed once the leader process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Wait waits for the leader to exit and returns what exec.Cmd.Wait did.
func (p *Process) Wait(ctx context.Context) error {
	select {
	case <-p.exited:
	case <-ctx.Done():
		return fmt.Errorf("wait for %s: %w", p.cfg.Name, ctx.Err())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waitErr
}

// WaitExit waits up to d for the leader to exit; reports whether it did.
// d <= 0 only looks.
func (p *Process) WaitExit(d time.Duration) bool {
	if d <= 0 {
		select {
		case <-p.exited:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// WaitEnd is WaitExit for a caller about to say how the bot ended: a bot
// not yet reaped that is known to be dying over its memory cap (the OOM
// killer took it, or, when the caller has a reason to wait, d > 0, it
// reached its cap) may take a while to be reaped on a loaded machine, so it
// is waited for up to KillTimeout more. It reports whether the bot exited.
func (p *Process) WaitEnd(d time.Duration) bool {
	if p.WaitExit(d) {
		return true
	}
	e := p.Ending()
	return (e.OverMemory || (d > 0 && e.HitMemory)) && p.WaitExit(KillTimeout)
}

// Status says how the bot exited: "exit status 3", "signal: killed",
// "exited normally", or over its memory cap "over its memory cap of 64 MiB
// (peak 64 MiB)" (MemoryDetail); "" while it runs.
func (p *Process) Status() string {
	e := p.Ending()
	switch {
	case !e.Exited:
		return ""
	case e.OverMemory:
		return MemoryDetail(e)
	}
	return e.How
}

// Suspend stops the bot and everything it started, unless already done;
// it cancels a pending SuspendIdle.
func (p *Process) Suspend() error {
	p.mu.Lock()
	p.gen++
	gen := p.gen
	p.mu.Unlock()
	if err := p.suspendGen(gen); err != nil {
		return err
	}
	// Outside the lock: a Resume need not wait for the freeze to complete.
	if w, ok := p.c.(suspendWaiter); ok {
		w.waitSuspended()
	}
	return nil
}

// suspendWaiter is a container whose suspend completes asynchronously
// (a cgroup freeze): Suspend waits for it, SuspendIdle does not, since
// nothing waits on a bot suspended in the background and the next Resume
// would only wait longer.
type suspendWaiter interface{ waitSuspended() }

// suspendGen suspends the bot unless another Suspend, Resume or
// SuspendIdle came after generation gen.
func (p *Process) suspendGen(gen uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gen != gen || p.suspended || p.killed {
		return nil
	}
	if err := p.c.suspend(); err != nil {
		return fmt.Errorf("suspend %s: %w", p.cfg.Name, err)
	}
	p.suspended = true
	return nil
}

// Resume continues what Suspend stopped, and cancels a pending
// SuspendIdle.
func (p *Process) Resume() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	if !p.suspended || p.killed {
		return nil
	}
	if err := p.c.resume(); err != nil {
		return fmt.Errorf("resume %s: %w", p.cfg.Name, err)
	}
	p.suspended = false
	return nil
}

// Suspended reports whether the bot is suspended.
func (p *Process) Suspended() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.suspended
}

// CPU is the CPU time used so far by the bot and its descendants; false
// where the platform cannot tell.
func (p *Process) CPU() (time.Duration, bool) { return p.c.cpu() }

// Kill ends the bot and everything it started, whatever its state, waits
// for them at most KillTimeout, and frees the container. It reports
// whether everything is gone. Calling it again only waits again.
func (p *Process) Kill() bool {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	_ = p.c.kill()
	deadline := time.Now().Add(KillTimeout)
	gone := p.WaitExit(KillTimeout)
	for !p.c.empty() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		_ = p.c.kill()
	}
	empty := p.c.empty()
	if empty {
		p.c.release()
	}
	return gone && empty
}

// Ending reports how the bot ended; Exited is false while the leader runs.
func (p *Process) Ending() Ending {
	e := Ending{Limit: p.cfg.Memory}
	p.killMu.Lock()
	e.OverMemory, e.HitMemory, e.Peak = p.c.memory()
	p.killMu.Unlock()
	if !p.WaitExit(0) {
		return e
	}
	e.Exited = true
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waitErr != nil {
		e.How = p.waitErr.Error()
	} else {
		e.How = "exited normally"
	}
	// Killed by a signal the host did not send, at its cap: the kernel's
	// OOM killer, even where its counter has not caught up.
	if !e.OverMemory && e.HitMemory && !p.killed && strings.Contains(e.How, "signal: killed") {
		e.OverMemory = true
	}
	return e
}

// newID returns a random container id.
func newID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// MinimalEnv builds a bot's environment from the host's (as os.Environ
// gives it): PATH, HOME, TMPDIR, LANG, every KINROW_* variable, the names in
// pass, and extra (NAME=VALUE, added last so they win). On Windows the
// variables programs need to run at all (SYSTEMROOT, …) are kept too.
func MinimalEnv(host []string, pass []string, extra []string) []string {
	keep := map[string]bool{"PATH": true, "HOME": true, "TMPDIR": true, "LANG": true}
	for _, n := range platformEnv {
		keep[n] = true
	}
	for _, n := range pass {
		keep[envKey(n)] = true
	}
	var env []string
	for _, kv := range host {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if keep[envKey(name)] || strings.HasPrefix(name, "KINROW_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// CheckEnvName says whether name can be passed through to a bot.
func CheckEnvName(name string) error {
	if name == "" {
		return errors.New("an empty environment variable name")
	}
	for _, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return fmt.Errorf("environment variable name %q: only letters, digits and _ are accepted", name)
		}
	}
	return nil
}

// MemoryDetail words an ending over the memory cap for a forfeit's
// detail: "over its memory cap of 64 MiB (peak 64 MiB)".
func MemoryDetail(e Ending) string {
	return fmt.Sprintf("over its memory cap of %s (peak %s)", FormatSize(e.Limit), FormatSize(e.Peak))
}
