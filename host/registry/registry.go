package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/enginebot"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Config sets up a Registry.
type Config struct {
	Finder       botpath.Finder
	StartTimeout time.Duration // default pluginbot.DefaultStartTimeout
	// ProbeTimeout bounds how long Default waits for the descriptions of
	// the bots it has not asked yet (default DefaultProbeTimeout). A bot
	// that has not completed its handshake and Info by then is passed over
	// for that choice; its probe goes on in the background, up to
	// StartTimeout, and its result is cached for the next.
	ProbeTimeout time.Duration
	// GomocupTolerance, when not nil, is the time Gomocup engines may take
	// beyond timeout_turn, over their manifests' tolerance key.
	GomocupTolerance *time.Duration
	Logger           hclog.Logger // default: a null logger
	// Containment caps every bot's memory and names the host environment
	// variables passed through to it (an engine's manifest max_memory and
	// env add to it).
	Containment pluginbot.Containment
	// Deny lists host paths no engine's box may see, nor any directory
	// above them: the records being written (kinrow match's --out). A
	// manifest whose directory or read list holds one is refused at the
	// engine's start.
	Deny []string
	// Verify refuses a bot whose executable's SHA-256 differs from the
	// lock file's (LockFile beside it), and one the lock file does not
	// list. Without it a lock file found beside a bot is checked all the
	// same.
	Verify bool
}

// DefaultProbeTimeout is how long choosing the default bot waits for the
// bots' descriptions: a healthy bot starts and describes itself in tens of
// milliseconds.
const DefaultProbeTimeout = time.Second

// maxProbes bounds the bots started at once to ask their Info.
const maxProbes = 8

// Registry finds, checks (lock file) and describes the bots on the bot path,
// chooses the default one, and starts them: plugins through
// host/pluginbot's Runner, the engines of manifests (Java players among
// them) through host/enginebot, both on host/procrun. Close kills every
// one still running and removes the plugins' socket directory.
type Registry struct {
	cfg      Config
	plugins  *pluginbot.Runner
	ctx      context.Context // ends at Close: background probes stop
	cancel   context.CancelFunc
	probing  sync.WaitGroup
	probeSem chan struct{}

	mu      sync.Mutex
	engines map[*enginebot.Engine]struct{}
	probes  map[probeKey]*probe
}

// probeKey identifies one executable: a bot's Info is asked once per path,
// size and modification time.
type probeKey struct {
	path string
	size int64
	mod  time.Time
}

// probe is one asking of a bot's Info; done is closed once info and err
// are set.
type probe struct {
	done chan struct{}
	info botapi.Info
	err  error
	// slow is set (under Registry.mu) once Default passed the bot over for
	// not answering within the probe timeout: later choices do not wait
	// for it again while it is still starting.
	slow bool
}

// New creates the registry and the runner of its plugins (with their
// private socket directory).
func New(cfg Config) (*Registry, error) {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = pluginbot.DefaultStartTimeout
	}
	if cfg.ProbeTimeout <= 0 {
		cfg.ProbeTimeout = DefaultProbeTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	plugins, err := pluginbot.NewRunner(pluginbot.Config{StartTimeout: cfg.StartTimeout, Logger: cfg.Logger, Containment: cfg.Containment})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Registry{
		cfg: cfg, plugins: plugins, ctx: ctx, cancel: cancel, probeSem: make(chan struct{}, maxProbes),
		engines: map[*enginebot.Engine]struct{}{}, probes: map[probeKey]*probe{},
	}, nil
}

// SocketDir is the directory holding the plugins' unix sockets.
func (l *Registry) SocketDir() string { return l.plugins.SocketDir() }

// Names lists the bots found; an engine whose manifest is broken is listed
// as "NAME (broken: reason)".
func (l *Registry) Names() []string {
	var names []string
	for _, e := range l.cfg.Finder.List() {
		if e.Kind == botpath.Manifest {
			if _, err := manifest.Load(e.Path, e.Name); err != nil {
				names = append(names, fmt.Sprintf("%s (broken: %v)", e.Name, err))
				continue
			}
		}
		names = append(names, e.Name)
	}
	return names
}

// Load starts bot name as a player called display: a plugin, or the engine
// its manifest describes.
func (l *Registry) Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error) {
	return l.LoadCapped(ctx, name, display, opts, 0)
}

// LoadCapped is Load with a memory cap in bytes for this bot (0: the
// registry's), as a Gomocup manager's INFO max_memory sets one.
func (l *Registry) LoadCapped(ctx context.Context, name, display string, opts map[string]string, memory int64) (referee.Player, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return nil, err
	}
	if e.Kind == botpath.Manifest {
		return l.startEngine(ctx, e, display, opts, memory)
	}
	exe, err := l.verify(e)
	if err != nil {
		return nil, err
	}
	b, err := l.startPlugin(ctx, e, display, opts, memory, exe)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// startEngine starts the engine of manifest entry e.
func (l *Registry) startEngine(ctx context.Context, e botpath.Entry, display string, opts map[string]string, memory int64) (*enginebot.Engine, error) {
	m, err := manifest.Load(e.Path, e.Name)
	if err != nil {
		return nil, fmt.Errorf("engine %s is broken: %w", e.Name, err)
	}
	exe, err := l.verifyEngine(m)
	if err != nil {
		return nil, err
	}
	if memory <= 0 {
		memory = m.MaxMemory
	}
	if memory <= 0 {
		memory = l.cfg.Containment.Memory
	}
	var eng *enginebot.Engine
	eng, err = enginebot.Start(ctx, enginebot.Config{
		Manifest: m, Display: display, Options: opts, Logger: l.cfg.Logger, StartTimeout: l.cfg.StartTimeout,
		Tolerance: l.cfg.GomocupTolerance, Memory: memory, Limits: l.cfg.Containment.Limits, Env: append(slices.Clone(l.cfg.Containment.Env), m.Env...),
		Sandbox: l.cfg.Containment.Sandbox, Network: l.cfg.Containment.Network, Exe: exe, Deny: l.cfg.Deny,
		OnClose: func() {
			l.mu.Lock()
			delete(l.engines, eng)
			l.mu.Unlock()
		},
	})
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.engines[eng] = struct{}{}
	l.mu.Unlock()
	return eng, nil
}

// Start starts plugin bot name and returns it; the registry kills it on
// Close. An engine manifest is refused: what needs a *Bot needs a plugin.
func (l *Registry) Start(ctx context.Context, name, display string, opts map[string]string) (*pluginbot.Bot, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return nil, err
	}
	if e.Kind != botpath.Plugin {
		return nil, fmt.Errorf("bot %s is an external engine (%s), not a plugin bot: this needs a plugin", name, e.Path)
	}
	exe, err := l.verify(e)
	if err != nil {
		return nil, err
	}
	return l.startPlugin(ctx, e, display, opts, 0, exe)
}

// startPlugin starts plugin entry e (see Start) under memory cap memory
// (0: the registry's); exe, when set, is its verified executable (taken
// over).
func (l *Registry) startPlugin(ctx context.Context, e botpath.Entry, display string, opts map[string]string, memory int64, exe *os.File) (*pluginbot.Bot, error) {
	return l.plugins.Start(ctx, pluginbot.Spec{Name: e.Name, Display: display, Path: e.Path, Options: opts, Memory: memory, Exe: exe})
}

// Info returns what bot name says of itself, starting it once to ask
// (cached by the executable's path, size and modification time; a bot that
// failed to start is remembered so too). An engine is described from its
// manifest (enginebot.Info), without starting it; a broken manifest gives
// its reason. Info waits for the answer up to the bot start timeout, or
// until ctx ends.
func (l *Registry) Info(ctx context.Context, name string) (botapi.Info, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return botapi.Info{}, err
	}
	return l.info(ctx, e)
}

// info describes entry e (see Info).
func (l *Registry) info(ctx context.Context, e botpath.Entry) (botapi.Info, error) {
	if e.Kind == botpath.Manifest {
		m, err := manifest.Load(e.Path, e.Name)
		if err != nil {
			return botapi.Info{}, fmt.Errorf("engine %s is broken: %w", e.Name, err)
		}
		return enginebot.Info(m), nil
	}
	p, err := l.probe(e)
	if err != nil {
		return botapi.Info{}, err
	}
	select {
	case <-p.done:
		return p.info, p.err
	case <-ctx.Done():
		return botapi.Info{}, fmt.Errorf("ask bot %s to describe itself: %w", e.Name, ctx.Err())
	}
}

// probe returns the asking of plugin e's Info: the cached one for this
// executable, or one started now in the background (at most maxProbes at
// once, each bounded by the start timeout, all stopped by Close).
func (l *Registry) probe(e botpath.Entry) (*probe, error) {
	st, err := os.Stat(e.Path)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", e.Name, err)
	}
	key := probeKey{path: e.Path, size: st.Size(), mod: st.ModTime()}
	l.mu.Lock()
	defer l.mu.Unlock()
	if p, ok := l.probes[key]; ok {
		return p, nil
	}
	p := &probe{done: make(chan struct{})}
	if err := l.ctx.Err(); err != nil { // closed: no new process
		p.err = fmt.Errorf("ask bot %s to describe itself: the registry is closed: %w", e.Name, err)
		close(p.done)
		return p, nil
	}
	l.probes[key] = p
	l.probing.Add(1) // under l.mu, so never after Close's Wait began
	go func() {
		defer l.probing.Done()
		defer close(p.done)
		select {
		case l.probeSem <- struct{}{}:
			defer func() { <-l.probeSem }()
		case <-l.ctx.Done():
			p.err = fmt.Errorf("ask bot %s to describe itself: %w", e.Name, l.ctx.Err())
			return
		}
		exe, err := l.verify(e)
		if err != nil {
			p.err = err
			return
		}
		b, err := l.startPlugin(l.ctx, e, e.Name, nil, 0, exe)
		if err != nil {
			p.err = err
			return
		}
		p.info = b.Info()
		b.Close()
	}()
	return p, nil
}

// CheckPlays says whether bot name plays rules: nil if it does, else an
// error "NAME does not play RULES (…)" naming what it plays (for an engine, the rules its manifest lists).
func (l *Registry) CheckPlays(ctx context.Context, name string, r engine.Rules) error {
	info, err := l.Info(ctx, name)
	if err != nil {
		return err
	}
	if e, lerr := l.cfg.Finder.Lookup(name); lerr == nil && e.Kind == botpath.Manifest {
		m, err := manifest.Load(e.Path, e.Name)
		if err != nil {
			return fmt.Errorf("engine %s is broken: %w", name, err)
		}
		if !m.Lists(r) {
			return fmt.Errorf("%s does not play %s (it plays %s, as its manifest lists)", name, r, m.RulesText())
		}
		return nil
	}
	if !info.Declares(r) {
		size := "of any size"
		if info.MaxRows > 0 || info.MaxCols > 0 {
			size = fmt.Sprintf("up to %dx%d", info.MaxRows, info.MaxCols)
		}
		return fmt.Errorf("%s does not play %s (it plays %s %s)", name, r, strings.Join(info.Kinds, ", "), size)
	}
	return nil
}

// Default names the strongest bot found that plays rules (ties: by name).
// The bots not described yet are asked at once, in parallel, and Default
// waits for them at most the probe timeout: a bot that has not answered by
// then (one that never completes its handshake) is passed over, so a broken
// executable on the bot path delays the choice by the probe timeout at most.
func (l *Registry) Default(ctx context.Context, r engine.Rules) (string, error) {
	type cand struct {
		name     string
		strength int
	}
	entries := l.cfg.Finder.List()
	probes := map[string]*probe{}
	for _, e := range entries { // start every probe before waiting on any
		if e.Kind == botpath.Plugin {
			if p, err := l.probe(e); err == nil {
				probes[e.Name] = p
			}
		}
	}
	wait, cancel := context.WithTimeout(ctx, l.cfg.ProbeTimeout)
	defer cancel()
	var cands []cand
	var broken []string
	for _, e := range entries {
		var info botapi.Info
		var err error
		if p := probes[e.Name]; p != nil && l.passedOver(p) {
			err = fmt.Errorf("still starting after %s; passed over", l.cfg.ProbeTimeout)
		} else if info, err = l.info(wait, e); errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			if p != nil {
				l.mu.Lock()
				p.slow = true
				l.mu.Unlock()
			}
			err = fmt.Errorf("did not describe itself within %s; passed over", l.cfg.ProbeTimeout)
		}
		if err != nil {
			broken = append(broken, fmt.Sprintf("%s (%v)", e.Name, err))
			continue
		}
		plays := info.Declares(r)
		if e.Kind == botpath.Manifest {
			plays = l.CheckPlays(ctx, e.Name, r) == nil // exactly the rules listed
		}
		if plays {
			cands = append(cands, cand{e.Name, info.StrengthFor(r.Kind.String())})
		}
	}
	if len(cands) == 0 {
		msg := fmt.Sprintf("no bot found plays %s (bots found: %s)", r, strings.Join(l.Names(), ", "))
		if len(l.Names()) == 0 {
			msg = "no bots found: run make, or set " + botpath.EnvVar
		}
		if len(broken) > 0 {
			msg += "; broken: " + strings.Join(broken, "; ")
		}
		return "", fmt.Errorf("%s", msg)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].strength != cands[j].strength {
			return cands[i].strength > cands[j].strength
		}
		return cands[i].name < cands[j].name
	})
	return cands[0].name, nil
}

// passedOver reports whether an earlier Default passed p's bot over for
// being slow and it is still starting.
func (l *Registry) passedOver(p *probe) bool {
	l.mu.Lock()
	slow := p.slow
	l.mu.Unlock()
	if !slow {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Live is how many bots and engines the registry has running (started
// and not yet closed or killed).
func (l *Registry) Live() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.engines) + l.plugins.Live()
}

// Close stops the probes under way, kills every bot and engine still
// running and removes the plugins' socket directory.
func (l *Registry) Close() {
	l.mu.Lock()
	l.cancel()
	l.mu.Unlock()
	l.probing.Wait() // each stops within the kill timeout
	l.mu.Lock()
	engines := make([]*enginebot.Engine, 0, len(l.engines))
	for e := range l.engines {
		engines = append(engines, e)
	}
	l.mu.Unlock()
	done := make(chan struct{})
	go func() { procrun.CloseAll(engines); close(done) }()
	l.plugins.Close() // the plugins side by side with the engines
	<-done
}
