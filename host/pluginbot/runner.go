package pluginbot

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Containment is what the loader holds its bots to beyond the process
// runner's own (host/procrun): a memory cap, the host environment
// variables passed through, and which plugin bots are suspended while it
// is not their turn.
type Containment struct {
	// Memory caps each bot's memory with its descendants', in bytes; 0:
	// none.
	Memory int64
	// Limits are each bot's other limits (tasks, file size, CPU quota).
	Limits procrun.Limits
	// Env names host environment variables each bot gets beyond the
	// minimal environment (procrun.MinimalEnv).
	Env []string
	// SuspendAll suspends every plugin bot, with everything it started,
	// from its answer (as soon as it uses CPU time, busyBudget of it,
	// after answering) until the host sends it its next request, as Gomocup engines are (their
	// manifests' suspend): a bot cannot think, nor let a child think, on
	// its opponent's time.
	SuspendAll bool
	// Suspend names the plugin bots suspended so when SuspendAll is
	// false.
	Suspend []string
	// MTLS runs the plugin channel over mutual TLS (go-plugin's
	// AutoMTLS): the host makes a certificate per bot, passed to it in
	// PLUGIN_CLIENT_CERT, and the bot answers with its own in the
	// handshake; another process that reaches the bot's socket can then
	// neither talk to it nor pass for it.
	MTLS bool
	// Sandbox is --sandbox: every bot's sandbox (procrun.Sandbox) is auto
	// (the default), required or off.
	Sandbox procrun.SandboxMode
	// Network gives the bots the host's network under the sandbox
	// (--bot-network).
	Network bool
}

// suspends reports whether plugin bot name is suspended while it is not
// its turn.
func (c Containment) suspends(name string) bool {
	return c.SuspendAll || slices.Contains(c.Suspend, name)
}

// groupRunner starts a bot for go-plugin the way the host needs it, covering
// go-plugin's own runner's gaps: the bot's stdin is /dev/null (go-plugin would
// hand it the host's stdin, the protocol stream); it runs in a container of
// its own (host/procrun: its own cgroup, or process group), so Kill ends it
// and every child it forked, escaped or not, and releases the stdout and
// stderr pipes go-plugin waits on; it gets a minimal environment; its
// stderr reaches go-plugin's logging line by line, capped
// (procrun.StderrLog); its stdout past the handshake is drained, and a
// flood there kills it (stdoutGuard); and the
// handshake's address is accepted only as a unix socket in the bot's
// private socket directory.
type groupRunner struct {
	logger    hclog.Logger
	cmd       *exec.Cmd
	stdout    io.ReadCloser
	stderr    io.ReadCloser // what go-plugin reads: ends when the bot's stderr does
	realErr   io.ReadCloser
	path      string
	socketDir string
	limits    procrun.Config

	mu        sync.Mutex
	run       *procrun.Process
	startedCh chan struct{}
	startDone bool
	// held is the bot's handshake socket, opened without following a
	// link, until the bot is killed or exits (holdSocket); heldPath its
	// path.
	held          *os.File
	heldPath      string
	socketsClosed bool
	// killed is set before the host kills the bot: its "signal: killed"
	// is then the host's doing, not the bot's failure (Wait).
	killed atomic.Bool
	// flood says how the bot flooded its stdout, if it did (stdoutGuard).
	flood floodNote
}

var _ runner.Runner = (*groupRunner)(nil)

// stderrPeriod is how long a bot's stderr cap lasts before it applies
// afresh (the plugin host does not tell moves apart here).
const stderrPeriod = time.Second

func newGroupRunner(logger hclog.Logger, cmd *exec.Cmd, c Containment, exe *os.File) (*groupRunner, error) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, fmt.Errorf("open %s for the bot's stdin: %w", os.DevNull, err)
	}
	cmd.Stdin = devnull
	var pluginVars []string
	socketDir := ""
	cookie := botapi.Handshake().MagicCookieKey
	for _, kv := range cmd.Env {
		name, val, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "PLUGIN_") || name == cookie {
			pluginVars = append(pluginVars, kv)
		}
		if name == plugin.EnvUnixSocketDir {
			socketDir = val
		}
	}
	cmd.Env = procrun.MinimalEnv(os.Environ(), c.Env, pluginVars)
	// Plain pipes, not exec's: exec.Cmd.Wait closes its own pipes' read
	// ends as soon as the process exits, before go-plugin has read all.
	stdout, outW, err := os.Pipe()
	if err != nil {
		devnull.Close()
		return nil, fmt.Errorf("bot stdout pipe: %w", err)
	}
	stderr, errW, err := os.Pipe()
	if err != nil {
		devnull.Close()
		stdout.Close()
		outW.Close()
		return nil, fmt.Errorf("bot stderr pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	pr, pw := io.Pipe()
	r := &groupRunner{logger: logger, cmd: cmd, stderr: pr, realErr: stderr, path: cmd.Path,
		socketDir: socketDir, limits: procrun.Config{Name: "bot " + filepath.Base(cmd.Path), Memory: c.Memory, Limits: c.Limits,
			Sandbox: procrun.Sandbox{Mode: c.Sandbox, Network: c.Network, Private: nonEmpty(socketDir), Exe: exe, Log: logger.Debug}}}
	r.stdout = newStdoutGuard(stdout, r.flooded)
	go func() {
		defer pw.Close()
		defer stderr.Close()
		<-r.started()
		log := procrun.NewStderrLog(
			// go-plugin reads what is kept and logs it (a bot's hclog
			// JSON lines at their own levels).
			func(line string) { _, _ = io.WriteString(pw, line+"\n") },
			func(b, l int64) {
				logger.Warn("stderr over its cap; dropped", "bytes", b, "lines", l, "cap", procrun.StderrCap, "per", stderrPeriod)
			})
		log.Period = stderrPeriod
		log.Copy(stderr)
	}()
	return r, nil
}

// nonEmpty is a list of s, or none when s is empty.
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// flooded kills the bot, which wrote bytes on its stdout after the
// handshake, more than StdoutCap within StdoutPeriod (stdoutGuard), and
// notes it for its forfeit.
func (r *groupRunner) flooded(bytes int64) {
	r.flood.set(bytes)
	r.logger.Warn("the bot flooded its standard output; killing it", "bytes", bytes, "cap", StdoutCap, "per", StdoutPeriod)
	// Killed before the pipe is read any further: the bot, blocked on its
	// full pipe, cannot finish its flood and answer as if nothing happened.
	if err := r.Kill(context.Background()); err != nil {
		r.logger.Warn("kill", "error", err)
	}
}

// started is closed once Start has run (whether it succeeded or not).
func (r *groupRunner) started() chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.startedCh == nil {
		r.startedCh = make(chan struct{})
	}
	return r.startedCh
}

// Start starts the bot process in its container.
func (r *groupRunner) Start(ctx context.Context) error {
	defer func() {
		ch := r.started()
		r.mu.Lock()
		if !r.startDone {
			r.startDone = true
			close(ch)
		}
		r.mu.Unlock()
	}()
	run, err := procrun.Start(ctx, r.cmd, r.limits)
	// The child holds its own copies of its ends.
	for _, f := range []any{r.cmd.Stdin, r.cmd.Stdout, r.cmd.Stderr} {
		if f, ok := f.(*os.File); ok {
			f.Close()
		}
	}
	if err != nil {
		r.realErr.Close()
		r.stdout.Close()
		return err
	}
	r.mu.Lock()
	r.run = run
	r.mu.Unlock()
	r.logger.Debug("bot process started", "path", r.path, "pid", run.PID())
	return nil
}

// proc is the running bot, nil before Start.
func (r *groupRunner) proc() *procrun.Process {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.run
}

// Wait waits for the bot process to exit (go-plugin calls it once).
func (r *groupRunner) Wait(ctx context.Context) error {
	run := r.proc()
	if run == nil {
		return fmt.Errorf("wait for %s: not started", r.path)
	}
	err := run.Wait(ctx)
	if run.WaitExit(0) {
		r.closeSockets() // a bot gone by itself is never killed
	}
	if err != nil && r.killed.Load() {
		// The host ended it (a Gomocup END, a forfeit, the end of a match):
		// go-plugin would log the killing signal as an ERROR.
		r.logger.Debug("bot process killed by the host", "how", err)
		return nil
	}
	return err
}

// exitStatus waits up to d for the process to exit (procrun's WaitEnd) and
// says how it did (Status); "" if it still runs.
func (r *groupRunner) exitStatus(d time.Duration) string {
	run := r.proc()
	if run == nil || !run.WaitEnd(d) {
		return ""
	}
	return run.Status()
}

// Kill ends the bot and everything it started, whatever its state, bounded
// in time (procrun.KillTimeout). Calling it again is harmless.
func (r *groupRunner) Kill(context.Context) error {
	r.killed.Store(true)
	run := r.proc()
	defer r.closeSockets()
	if run == nil {
		return nil
	}
	if !run.Kill() {
		return fmt.Errorf("bot %s (pid %d): processes left after %s", r.path, run.PID(), procrun.KillTimeout)
	}
	return nil
}

// PID returns the bot's process id, 0 before Start.
func (r *groupRunner) PID() int {
	if run := r.proc(); run != nil {
		return run.PID()
	}
	return 0
}

// Suspend stops the bot and everything it started.
func (r *groupRunner) Suspend() error {
	if run := r.proc(); run != nil {
		return run.Suspend()
	}
	return nil
}

// SuspendBusy suspends the bot once it uses more than budget of CPU time
// before its next request (where that is not measured, once its threads
// sleep, at most wait later), without blocking; a Resume cancels it
// (procrun.Process.SuspendBusy).
func (r *groupRunner) SuspendBusy(budget, wait time.Duration, fail func(error)) {
	if run := r.proc(); run != nil {
		run.SuspendBusy(budget, wait, fail)
	}
}

// Resume continues what Suspend stopped.
func (r *groupRunner) Resume() error {
	if run := r.proc(); run != nil {
		return run.Resume()
	}
	return nil
}

// CPU is the CPU time the bot and its descendants have used.
func (r *groupRunner) CPU() (time.Duration, bool) {
	if run := r.proc(); run != nil {
		return run.CPU()
	}
	return 0, false
}

func (r *groupRunner) Stdout() io.ReadCloser { return r.stdout }
func (r *groupRunner) Stderr() io.ReadCloser { return r.stderr }
func (r *groupRunner) Name() string          { return r.path }
func (r *groupRunner) ID() string            { return strconv.Itoa(r.PID()) }

// Diagnose adds nothing: the host words its own start-up errors.
func (r *groupRunner) Diagnose(context.Context) string { return "" }

// PluginToHost is where go-plugin hands over the address the bot's
// handshake line names: only a unix socket inside the bot's private socket
// directory is accepted, so a bot cannot send the host's gRPC client to a
// TCP address or to another process's socket.
func (r *groupRunner) PluginToHost(network, addr string) (string, string, error) {
	if err := checkAddress(r.socketDir, network, addr); err != nil {
		return "", "", err
	}
	if network != "unix" {
		return network, addr, nil
	}
	if err := r.holdSocket(addr); err != nil {
		return "", "", fmt.Errorf("the bot's handshake names unix socket %q: %w", addr, err)
	}
	return network, addr, nil
}

// holdSocket opens the bot's handshake socket at path (openSocket: a
// socket, no link followed) and keeps it until the bot is killed or exits:
// the host's gRPC connections to the bot are dialled through it
// (dialHeld).
func (r *groupRunner) holdSocket(path string) error {
	f, err := openSocket(r.proc(), path)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.held != nil {
		r.held.Close()
	}
	r.held, r.heldPath = f, path
	return nil
}

// dialHeld connects to the socket holdSocket checked, as that very file
// (through /proc/self/fd, under the lock that closes it, so a descriptor
// number reused after the bot is gone is never dialled).
func (r *groupRunner) dialHeld(ctx context.Context) (net.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var d net.Dialer
	switch {
	case r.held != nil:
		return d.DialContext(ctx, "unix", dialAddress(r.held))
	case r.heldPath != "" && !r.socketsClosed:
		return d.DialContext(ctx, "unix", r.heldPath) // no /proc/self/fd here: checked by Lstat
	}
	return nil, fmt.Errorf("the bot %s is gone: its socket is closed", r.path)
}

// dialChecked opens the socket at path as holdSocket does and dials it
// once, at once (a version-2 bot's session socket).
func (r *groupRunner) dialChecked(ctx context.Context, path string) (net.Conn, error) {
	f, err := openSocket(r.proc(), path)
	if err != nil {
		return nil, &botapi.SocketRefused{Err: err}
	}
	var d net.Dialer
	if f == nil {
		return d.DialContext(ctx, "unix", path)
	}
	defer f.Close()
	return d.DialContext(ctx, "unix", dialAddress(f))
}

// closeSockets closes what holdSocket kept.
func (r *groupRunner) closeSockets() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.held != nil {
		r.held.Close()
		r.held = nil
	}
	r.socketsClosed = true
}

// checkAddress accepts only a unix socket inside dir (a bot's private
// socket directory), or, on Windows, where go-plugin's bots listen on TCP,
// a port of the loopback address.
func checkAddress(dir, network, addr string) error {
	if network == "tcp" && pluginsListenOnTCP {
		host, port, err := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() || port == "" || port == "0" {
			return fmt.Errorf("the bot's handshake names tcp address %q: only a port of the loopback address is accepted", addr)
		}
		return nil
	}
	if network != "unix" {
		return fmt.Errorf("the bot's handshake names a %s address %q: only a unix socket in its private directory is accepted", network, addr)
	}
	if dir == "" {
		return fmt.Errorf("the bot's handshake names unix socket %q, but it has no private socket directory to be in", addr)
	}
	if !inDir(dir, addr) {
		return fmt.Errorf("the bot's handshake names unix socket %q, outside its private directory %s", addr, dir)
	}
	return nil
}

// inDir reports whether path is an absolute path directly inside dir.
func inDir(dir, path string) bool {
	clean := filepath.Clean(path)
	return dir != "" && filepath.IsAbs(clean) && filepath.Dir(clean) == filepath.Clean(dir)
}

// HostToPlugin keeps addresses as they are.
func (r *groupRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

// dialSessionSocket dials the socket a version-2 bot's session hello
// names: like its handshake's address, only a unix socket directly inside
// its private socket directory, never through a link, and through the
// very file checked.
func (b *Bot) dialSessionSocket(ctx context.Context, path string) (net.Conn, error) {
	r := b.proc()
	dir := ""
	if r != nil {
		dir = r.socketDir
	}
	if !inDir(dir, path) {
		return nil, &botapi.SocketRefused{Err: fmt.Errorf("outside its private socket directory %s: only a unix socket there is dialled", dir)}
	}
	return r.dialChecked(ctx, path)
}

// dialPlugin is the host's gRPC dialer for the bot: its handshake socket,
// as checked (groupRunner.dialHeld); the address go-plugin passes is the
// same socket's path.
func (b *Bot) dialPlugin(ctx context.Context, _ string) (net.Conn, error) {
	r := b.proc()
	if r == nil {
		return nil, fmt.Errorf("bot %s: not started", b.name)
	}
	return r.dialHeld(ctx)
}
