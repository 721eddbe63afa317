package pluginbot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin/runner"
)

// groupRunner starts a bot for go-plugin the way the host needs it, covering
// go-plugin's own runner's gaps: the bot's stdin is /dev/null (go-plugin would
// hand it the host's stdin, the protocol stream); the bot leads a process
// group of its own and gets SIGKILL when the host dies (Pdeathsig); and Kill
// kills the whole group, so children a bot forked die with it and release
// the stdout/stderr pipes go-plugin waits on.
type groupRunner struct {
	logger hclog.Logger
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr io.ReadCloser
	path   string

	mu      sync.Mutex
	pid     int
	exited  chan struct{} // closed when Wait returns
	waitErr error
}

var _ runner.Runner = (*groupRunner)(nil)

func newGroupRunner(logger hclog.Logger, cmd *exec.Cmd) (*groupRunner, error) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, fmt.Errorf("open %s for the bot's stdin: %w", os.DevNull, err)
	}
	cmd.Stdin = devnull
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		devnull.Close()
		return nil, fmt.Errorf("bot stdout pipe: %w", err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		devnull.Close()
		return nil, fmt.Errorf("bot stderr pipe: %w", err)
	}
	return &groupRunner{logger: logger, cmd: cmd, stdout: stdout, stderr: stderr, path: cmd.Path, exited: make(chan struct{})}, nil
}

// Start starts the bot process.
func (r *groupRunner) Start(context.Context) error {
	err := r.cmd.Start()
	if f, ok := r.cmd.Stdin.(*os.File); ok {
		f.Close() // the child holds its own copy
	}
	if err != nil {
		return fmt.Errorf("start %s: %w", r.path, err)
	}
	r.mu.Lock()
	r.pid = r.cmd.Process.Pid
	r.mu.Unlock()
	r.logger.Debug("bot process started", "path", r.path, "pid", r.pid)
	return nil
}

// Wait waits for the bot process to exit (go-plugin calls it once).
func (r *groupRunner) Wait(context.Context) error {
	err := r.cmd.Wait()
	r.mu.Lock()
	r.waitErr = err
	r.mu.Unlock()
	close(r.exited)
	return err
}

// exitStatus waits up to d for the process to exit and says how it did:
// "exit status 3", "signal: segmentation fault", "exited normally"; "" if it
// still runs.
func (r *groupRunner) exitStatus(d time.Duration) string {
	select {
	case <-r.exited:
	case <-time.After(d):
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waitErr != nil {
		return r.waitErr.Error()
	}
	return "exited normally"
}

// Kill sends SIGKILL to the bot's whole process group. A frozen (SIGSTOPped)
// process dies of it too. Calling it again is harmless.
func (r *groupRunner) Kill(context.Context) error {
	pid := r.PID()
	if pid <= 0 {
		return nil
	}
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill bot process group %d: %w", pid, err)
	}
	return nil
}

// PID returns the bot's process id (and process group id), 0 before Start.
func (r *groupRunner) PID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

func (r *groupRunner) Stdout() io.ReadCloser { return r.stdout }
func (r *groupRunner) Stderr() io.ReadCloser { return r.stderr }
func (r *groupRunner) Name() string          { return r.path }
func (r *groupRunner) ID() string            { return strconv.Itoa(r.PID()) }

// Diagnose adds nothing: the host words its own start-up errors.
func (r *groupRunner) Diagnose(context.Context) string { return "" }

// PluginToHost keeps addresses as they are: bot and host share a machine.
func (r *groupRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

// HostToPlugin keeps addresses as they are.
func (r *groupRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}
