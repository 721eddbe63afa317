package enginebot

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
)

// maxStderrLine bounds one logged line of the engine's stderr.
const maxStderrLine = 4 << 10

// process is the engine's process group and the host's ends of its pipes.
type process struct {
	cmd    *exec.Cmd
	pid    int
	stdin  *os.File // the host's write end
	stdout *os.File // the host's read end
	exited chan struct{}

	mu        sync.Mutex
	waitErr   error
	closed    bool
	suspended bool
	gen       uint64 // bumped by every suspend and resume: cancels a pending suspendIdle
}

// startProcess starts argv in dir as the leader of a new process group,
// with pipes for stdin and stdout and stderr logged to log. The pipes are
// plain os.Pipe files (not exec's copying pipes), so Wait never races the
// host's reads and writes can have deadlines.
func startProcess(argv []string, dir string, log hclog.Logger) (*process, error) {
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
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	// The child holds its own copies of its ends.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	p := &process{cmd: cmd, pid: cmd.Process.Pid, stdin: inW, stdout: outR, exited: make(chan struct{})}
	go p.logStderr(errR, log)
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.waitErr = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// logStderr logs each line the engine writes on stderr until it closes it.
func (p *process) logStderr(r *os.File, log hclog.Logger) {
	defer r.Close()
	br := bufio.NewReaderSize(r, maxStderrLine)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			log.Debug("stderr", "line", string(trimEOL(line)))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
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

// signal sends sig to the whole process group; a group already gone is no
// error.
func (p *process) signal(sig syscall.Signal) error {
	err := syscall.Kill(-p.pid, sig)
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signal %v to process group %d: %w", sig, p.pid, err)
	}
	return nil
}

// suspend stops the group (SIGSTOP) unless it is stopped already.
func (p *process) suspend() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	if p.suspended || p.closed {
		return nil
	}
	p.suspended = true
	return p.signal(syscall.SIGSTOP)
}

// resume continues the group (SIGCONT) if suspend stopped it, and cancels
// a pending suspendIdle.
func (p *process) resume() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	if !p.suspended {
		return nil
	}
	p.suspended = false
	return p.signal(syscall.SIGCONT)
}

// idleWait bounds how long suspendIdle waits for the engine to go idle.
const idleWait = 100 * time.Millisecond

// suspendIdle stops the group like suspend, but only once every thread of
// the engine's process sleeps (two looks at /proc a millisecond apart), or
// idleWait later whatever it does; it does not block, and a resume or
// suspend before then cancels it. An engine that has written its answer
// may still have work to finish: Rapfi's search thread writes its move and
// only then marks the search over, and its command loop drops a command
// read before that, so a process stopped in between and continued with
// the next TURN reads "TURN" while still "thinking", drops it and answers
// the coordinates with "ERROR Unknown command: 9,4". Failures to signal go
// to fail.
func (p *process) suspendIdle(fail func(error)) {
	p.mu.Lock()
	if p.suspended || p.closed {
		p.mu.Unlock()
		return
	}
	p.gen++
	gen := p.gen
	p.mu.Unlock()
	go func() {
		p.settle(idleWait)
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.gen != gen || p.suspended || p.closed {
			return
		}
		p.suspended = true
		if err := p.signal(syscall.SIGSTOP); err != nil {
			fail(err)
		}
	}()
}

// settle waits until every thread of the engine's process sleeps (two
// looks at /proc a millisecond apart), at most d.
func (p *process) settle(d time.Duration) {
	deadline := time.Now().Add(d)
	for calm := 0; calm < 2 && time.Now().Before(deadline); {
		if threadsIdle(p.pid) {
			calm++
		} else {
			calm = 0
		}
		time.Sleep(time.Millisecond)
	}
}

// threadsIdle reports whether no thread of process pid is running or
// runnable (state R in /proc/PID/task/TID/stat); true when it cannot tell
// (no /proc, the process gone).
func threadsIdle(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return true
	}
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/stat")
		if err != nil {
			continue
		}
		// The state follows the command name in parentheses, which may
		// itself hold spaces and parentheses.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'R' {
			return false
		}
	}
	return true
}

// waitExit waits up to d for the process to exit; reports whether it did.
func (p *process) waitExit(d time.Duration) bool {
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

// status says how the process exited: "exit status 3", "signal: killed",
// "exited normally"; "" while it runs.
func (p *process) status() string {
	if !p.waitExit(0) {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waitErr != nil {
		return p.waitErr.Error()
	}
	return "exited normally"
}

// kill sends SIGKILL to the group (a stopped process dies of it too), waits
// for the leader at most d, and closes the host's pipe ends, which releases
// any reader. It reports whether the leader is gone. Idempotent.
func (p *process) kill(d time.Duration) bool {
	_ = p.signal(syscall.SIGKILL)
	gone := p.waitExit(d)
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
