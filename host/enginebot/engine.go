package enginebot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// DefaultStartTimeout bounds the start of an engine (for a kinrow engine,
// its answer to protocol_version) and, for a Gomocup engine, the set-up of
// each game (START or RESTART, the INFO settings and ABOUT).
const DefaultStartTimeout = 5 * time.Second

// DefaultTolerance is how long past a move's time a Gomocup engine's answer
// is still accepted unless its manifest or the host says otherwise: the
// tolerance GomocupJudge, Gomocup's own manager, adds to timeout_turn.
const DefaultTolerance = time.Second

const (
	// killTimeout bounds the wait for an engine after SIGKILL.
	killTimeout = 3 * time.Second
	// quitTimeout is how long Close lets an engine exit by itself after END
	// or quit (Gomocup managers allow about a second).
	quitTimeout = time.Second
	// exitGrace is how long Exit waits for an engine whose connection
	// broke to be reaped, so a crash is reported with its exit status.
	exitGrace = 200 * time.Millisecond
)

// Config sets up an engine.
type Config struct {
	// Manifest describes the engine.
	Manifest *manifest.Manifest
	// Display is the player's name in records, e.g. "rapfi#2" (default the
	// manifest's name).
	Display string
	// Options are given at load time; they override the manifest's.
	Options map[string]string
	// Logger gets the engine's stderr and what the host does with it.
	Logger hclog.Logger
	// StartTimeout bounds the start and, for a Gomocup engine, each game's
	// set-up (default DefaultStartTimeout).
	StartTimeout time.Duration
	// Tolerance, when set, is how long past a move's time a Gomocup
	// engine's answer is still accepted (kinrow match --gomocup-tolerance),
	// overriding the manifest's tolerance; when nil, the manifest's applies,
	// else DefaultTolerance. Kinrow-protocol engines get the referee's grace
	// only.
	Tolerance *time.Duration
	// OnClose is called once when the engine is killed or closed.
	OnClose func()
	// Memory caps the engine's memory with its descendants', in bytes (0:
	// none): over it, the engine is killed and its forfeit says so.
	Memory int64
	// Limits are the engine's other limits (tasks, file size, CPU quota).
	Limits procrun.Limits
	// Env names host environment variables passed through to the engine
	// beyond the minimal environment (procrun.MinimalEnv).
	Env []string
	// Sandbox is --sandbox: the engine's sandbox (procrun.Sandbox) is
	// auto (the default), required or off.
	Sandbox procrun.SandboxMode
	// Network gives the engine the host's network under the sandbox
	// (--bot-network; a manifest's network = true does too).
	Network bool
	// Exe, when set, is the engine's executable, open and verified
	// (--verify-bots): it is what runs. Start takes it over and closes it.
	Exe *os.File
	// Deny lists host paths the engine's box may not see, nor any
	// directory above them (procrun.Sandbox.Deny: the records being
	// written).
	Deny []string
}

// driver speaks one protocol to the engine.
type driver interface {
	newGame(ctx context.Context, s referee.Setup) error
	play(ctx context.Context, m engine.Move) error
	undo(ctx context.Context) error
	genMove(ctx context.Context, req referee.MoveRequest) (string, error)
	// quit asks the engine to exit (END, quit) without waiting long.
	quit()
}

// Engine is one running engine, a referee.Player.
type Engine struct {
	m    *manifest.Manifest
	name string
	opts map[string]string
	log  hclog.Logger
	proc *process
	drv  driver
	// startTimeout bounds each game's set-up; tolerance is added past a
	// move's time (Gomocup engines; 0 for kinrow engines).
	startTimeout time.Duration
	tolerance    time.Duration
	memory       int64 // the memory cap in bytes, 0: none (Gomocup: INFO max_memory)
	close        sync.Once
	done         chan struct{} // closed when the engine is killed or closed

	mu      sync.Mutex
	killed  bool
	lost    bool // a call failed because the engine went away
	failed  bool // a call failed (Facts looks closer then)
	onClose func()
}

var _ referee.Player = (*Engine)(nil)

// Options merges the manifest's options with those given at load time
// (which win), checking each against the engine's protocol.
func Options(m *manifest.Manifest, given map[string]string) (map[string]string, error) {
	opts := maps.Clone(m.Options)
	if opts == nil {
		opts = map[string]string{}
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := manifest.CheckOption(m.Protocol, k, given[k]); err != nil {
			return nil, fmt.Errorf("engine %s: %w", m.Name, err)
		}
		opts[k] = given[k]
	}
	return opts, nil
}

// Start starts the engine the manifest describes and, for a kinrow engine,
// checks that it answers protocol_version. The engine is killed if ctx ends
// first or the start fails.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	m := cfg.Manifest
	if cfg.Display == "" {
		cfg.Display = m.Name
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.Exe != nil {
		defer cfg.Exe.Close() // the engine holds its own copy once started
	}
	opts, err := Options(m, cfg.Options)
	if err != nil {
		return nil, err
	}
	exe, err := m.Executable()
	if err != nil {
		return nil, fmt.Errorf("engine %s (%s): %w", m.Name, m.Path, err)
	}
	argv := append([]string{exe}, m.Command[1:]...)
	log := cfg.Logger.Named(cfg.Display)
	env := procrun.MinimalEnv(os.Environ(), cfg.Env, nil)
	limits := procrun.Config{Name: "engine " + m.Name, Memory: cfg.Memory, Limits: cfg.Limits, Sandbox: Sandbox(m, argv, cfg)}
	limits.Sandbox.Log = log.Debug
	if limits.Sandbox.Mode != procrun.SandboxOff {
		for _, p := range OutsidePaths(m, argv) {
			log.Warn("a path the engine's command names is not in its box: add it to the manifest's read to let the engine see it", "path", p, "manifest", m.Path)
		}
	}
	proc, err := startProcess(ctx, argv, m.Dir, env, limits, log)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", m.Name, err)
	}
	log.Debug("engine process started", "command", strings.Join(argv, " "), "dir", m.Dir, "pid", proc.pid, "protocol", string(m.Protocol))
	e := &Engine{m: m, name: cfg.Display, opts: opts, log: log, proc: proc, onClose: cfg.OnClose, done: make(chan struct{}),
		startTimeout: cfg.StartTimeout, memory: cfg.Memory}
	if m.Protocol == manifest.Gomocup {
		e.tolerance = DefaultTolerance
		if m.HasTolerance {
			e.tolerance = m.Tolerance
		}
		if cfg.Tolerance != nil {
			e.tolerance = max(*cfg.Tolerance, 0)
		}
	}
	switch m.Protocol {
	case manifest.Gomocup:
		e.drv = newGomocup(e)
	case manifest.Kinrow:
		sctx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
		d, err := newKinrow(sctx, e)
		cancel()
		if err != nil {
			e.Kill()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("start engine %s: %w", m.Name, ctx.Err())
			}
			return nil, fmt.Errorf("engine %s did not start: %w", m.Name, err)
		}
		e.drv = d
	default:
		e.Kill()
		return nil, fmt.Errorf("engine %s: unknown protocol %q", m.Name, m.Protocol)
	}
	return e, nil
}

// Name is the engine's display name.
func (e *Engine) Name() string { return e.name }

// PID is the engine's process id (and process group id).
func (e *Engine) PID() int { return e.proc.pid }

// Manifest is the engine's manifest.
func (e *Engine) Manifest() *manifest.Manifest { return e.m }

// NewGame starts a game on the engine; rules the manifest does not list are
// refused.
func (e *Engine) NewGame(ctx context.Context, s referee.Setup) error {
	if !e.m.Lists(s.Rules) {
		return fmt.Errorf("engine %s does not play %s: it plays %s", e.m.Name, s.Rules, e.m.RulesText())
	}
	return e.wrap(e.drv.newGame(ctx, s))
}

// Play tells the engine a move was played.
func (e *Engine) Play(ctx context.Context, m engine.Move) error {
	return e.wrap(e.drv.play(ctx, m))
}

// Undo tells the engine the last move was taken back.
func (e *Engine) Undo(ctx context.Context) error { return e.wrap(e.drv.undo(ctx)) }

// GenMove asks the engine for a move.
func (e *Engine) GenMove(ctx context.Context, req referee.MoveRequest) (referee.Answer, error) {
	e.proc.stderr.Reset() // each move may log procrun.StderrCap of stderr
	mv, err := e.drv.genMove(ctx, req)
	return referee.Answer{Move: mv}, e.wrap(err)
}

// wrap marks errors that mean the engine is gone as
// referee.ErrDisconnected.
func (e *Engine) wrap(err error) error {
	if err == nil {
		return nil
	}
	e.mu.Lock()
	e.failed = true
	e.mu.Unlock()
	if errors.Is(err, referee.ErrDisconnected) {
		e.setLost()
		return fmt.Errorf("%w%s", err, e.howExited())
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, os.ErrClosed) || e.proc.waitExit(0) {
		e.setLost()
		return fmt.Errorf("%w: %v%s", referee.ErrDisconnected, err, e.howExited())
	}
	return err
}

// howExited says how an engine whose connection broke exited, waiting a
// little for it to be reaped: " (the engine process exited (exit status
// 3))", or "" if it still runs.
func (e *Engine) howExited() string {
	e.proc.waitExit(exitGrace)
	if how := e.proc.status(); how != "" {
		return " (the engine process exited (" + how + "))"
	}
	return ""
}

func (e *Engine) setLost() {
	e.mu.Lock()
	e.lost = true
	e.mu.Unlock()
}

// Facts reports what the host knows of the engine's processes: its CPU
// time, its tolerance past a move's time (a Gomocup engine's; 0 for a
// kinrow-protocol engine, to which the referee's grace applies) and, once
// the host killed it, a call to it failed or its process is gone, how it
// ended (waiting up to exitGrace for an engine whose connection broke to be
// reaped) and whether it went over its memory cap. A healthy engine costs
// one CPU time reading.
func (e *Engine) Facts() referee.Facts {
	f := referee.Facts{Tolerance: e.tolerance}
	f.CPU, f.CPUKnown = e.proc.run.CPU()
	e.mu.Lock()
	killed, failed, lost := e.killed, e.failed, e.lost
	e.mu.Unlock()
	if !killed && !failed && !e.proc.run.WaitExit(0) {
		return f
	}
	f.OverMemory = e.proc.run.Ending().OverMemory
	if killed {
		f.Exited, f.How = true, "killed by the host"
		return f
	}
	if lost {
		e.proc.waitExit(exitGrace)
	}
	if how := e.proc.status(); how != "" {
		f.Exited, f.How = true, "the engine process exited ("+how+")"
	}
	return f
}

// Solve is unsupported: engines are asked for moves only.
func (e *Engine) Solve(context.Context) (botapi.SolveStream, error) {
	return nil, fmt.Errorf("engine %s cannot solve positions: %w", e.name, referee.ErrUnsupported)
}

// Kill stops the engine now: SIGKILL to its whole process group, even a
// suspended one, bounded in time. Idempotent.
func (e *Engine) Kill() {
	e.close.Do(func() {
		e.mu.Lock()
		e.killed = true
		e.mu.Unlock()
		e.finish()
	})
}

// Close asks the engine to quit (END or quit), waits at most a second for
// it to exit, then kills its process group anyway so no child survives.
// Idempotent, and a no-op after Kill.
func (e *Engine) Close() {
	e.close.Do(func() {
		e.mu.Lock()
		e.killed = true
		e.mu.Unlock()
		if e.drv != nil && !e.proc.waitExit(0) {
			_ = e.proc.resume()
			e.drv.quit()
			e.proc.closeInput()
			if !e.proc.waitExit(quitTimeout) {
				e.log.Warn("engine did not exit in time after being asked to; killing it", "pid", e.proc.pid)
			}
		}
		e.finish()
	})
}

func (e *Engine) finish() {
	close(e.done)
	if !e.proc.kill(killTimeout) {
		e.log.Error("engine did not go away after SIGKILL of its process group", "pid", e.proc.pid)
	}
	if e.onClose != nil {
		e.onClose()
	}
}

// suspend stops the engine while it is not its move, when its manifest
// asks for it.
func (e *Engine) suspend() {
	if !e.m.Suspend {
		return
	}
	if err := e.proc.suspend(); err != nil {
		e.log.Warn("suspend the engine", "error", err)
	}
}

// suspendIdle stops the engine, when its manifest asks for it, once it has
// finished with its answer (see process.suspendIdle), without blocking.
func (e *Engine) suspendIdle() {
	if !e.m.Suspend {
		return
	}
	e.proc.suspendIdle(func(err error) { e.log.Warn("suspend the engine", "error", err) })
}

// resume continues a suspended engine before the host talks to it.
func (e *Engine) resume() {
	if err := e.proc.resume(); err != nil {
		e.log.Warn("resume the engine", "error", err)
	}
}

// Info describes an engine as bots describe themselves: its name and
// strength, the kinds and largest board of its rules, and its manifest's
// options as string options with their values as defaults.
func Info(m *manifest.Manifest) botapi.Info {
	info := botapi.Info{Name: m.Name, Version: string(m.Protocol) + " engine", Strength: m.Strength}
	for _, r := range m.Rules {
		kind := r.Variant() // "mnk", "mnk:exact", "mnk:renju", …
		if !slices.Contains(info.Kinds, kind) {
			info.Kinds = append(info.Kinds, kind)
		}
		info.MaxRows = max(info.MaxRows, r.Rows)
		info.MaxCols = max(info.MaxCols, r.Cols)
	}
	keys := make([]string, 0, len(m.Options))
	for k := range m.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		info.Options = append(info.Options, botapi.Option{Name: k, Type: botapi.OptionString, Default: m.Options[k], Help: "from the manifest"})
	}
	return info
}
