package enginebot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/host/procrun"
)

// process is the engine held by the host's process runner (host/procrun)
// and the host's ends of its pipes.
type process struct {
	run    *procrun.Process
	pid    int
	stdin  *os.File // the host's write end
	stdout *os.File // the host's read end
	exited <-chan struct{}
	stderr *procrun.StderrLog

	mu     sync.Mutex
	closed bool
}

// startProcess starts argv in dir in a container of its own (procrun: a
// cgroup, a process group), with env as its whole environment, pipes for
// stdin and stdout, and stderr logged to log line by line, capped per move.
// The pipes are plain os.Pipe files (not exec's copying pipes), so Wait
// never races the host's reads and writes can have deadlines.
func startProcess(ctx context.Context, argv []string, dir string, env []string, limits procrun.Config, log hclog.Logger) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if limits.Name == "" {
		limits.Name = argv[0]
	}
	run, err := procrun.Start(ctx, cmd, limits)
	// The child holds its own copies of its ends.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &process{run: run, pid: run.PID(), stdin: inW, stdout: outR, exited: run.Exited()}
	p.stderr = procrun.NewStderrLog(
		func(line string) { log.Debug("stderr", "line", line) },
		func(b, l int64) {
			log.Warn("stderr over its cap; dropped", "bytes", b, "lines", l, "cap", procrun.StderrCap)
		})
	go func() {
		defer errR.Close()
		p.stderr.Copy(errR)
	}()
	return p, nil
}

// write writes b to the engine's stdin before ctx's deadline (or within
// defaultWrite when ctx has none), so a frozen engine with a full pipe
// cannot block the host. A missed deadline wraps context.DeadlineExceeded.
func (p *process) write(ctx context.Context, b []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(defaultWrite)
	}
	if err := p.stdin.SetWriteDeadline(dl); err != nil {
		return fmt.Errorf("write to the engine: %w", err)
	}
	_, err := p.stdin.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("write to the engine: %w (its input is full)", context.DeadlineExceeded)
	}
	if err != nil {
		return fmt.Errorf("write to the engine: %w", err)
	}
	return nil
}

// defaultWrite bounds a write without a deadline.
const defaultWrite = 5 * time.Second

// suspend stops the engine and everything it started unless it is
// stopped already (procrun), and cancels a pending suspendIdle.
func (p *process) suspend() error { return p.run.Suspend() }

// resume continues what suspend stopped, and cancels a pending
// suspendIdle.
func (p *process) resume() error { return p.run.Resume() }

// idleWait bounds how long suspendIdle waits for the engine to go idle.
const idleWait = 100 * time.Millisecond

// suspendIdle stops the engine like suspend, but only once every thread of
// its process sleeps, or idleWait later whatever it does
// (procrun.Process.SuspendIdle); it does not block, and a resume or
// suspend before then cancels it. An engine that has written its answer
// may still have work to finish: Rapfi's search thread writes its move and
// only then marks the search over, and its command loop drops a command
// read before that, so a process stopped in between and continued with
// the next TURN reads "TURN" while still "thinking", drops it and answers
// the coordinates with "ERROR Unknown command: 9,4". Failures to suspend
// go to fail.
func (p *process) suspendIdle(fail func(error)) { p.run.SuspendIdle(idleWait, fail) }

// settle waits until every thread of the engine's process sleeps (two
// looks at /proc a millisecond apart), at most d.
func (p *process) settle(d time.Duration) { p.run.Settle(d) }

// waitExit waits up to d for the process to exit (procrun's WaitEnd: an
// engine known to be dying over its memory cap is waited for); reports
// whether it did.
func (p *process) waitExit(d time.Duration) bool { return p.run.WaitEnd(d) }

// status says how the process exited ("" while it runs): procrun's Status.
func (p *process) status() string { return p.run.Status() }

// kill ends the engine and everything it started, whatever its state
// (procrun), waits at most d (procrun.KillTimeout), and closes the host's
// pipe ends, which releases any reader. It reports whether everything is
// gone. Idempotent.
func (p *process) kill(time.Duration) bool {
	gone := p.run.Kill()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		p.stdin.Close()
		p.stdout.Close()
	}
	return gone
}

// closeInput closes the engine's stdin (it reads EOF).
func (p *process) closeInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.stdin.Close()
	}
}
