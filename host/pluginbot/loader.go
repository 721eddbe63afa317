package pluginbot

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/enginebot"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// LoaderConfig sets up a Loader.
type LoaderConfig struct {
	Finder       botpath.Finder
	StartTimeout time.Duration // default DefaultStartTimeout
	Logger       hclog.Logger  // default: a null logger
}

// Loader finds, starts and keeps track of bot processes: plugins and
// external engines described by manifests (host/enginebot); Close kills
// every one still running and removes the socket directory.
type Loader struct {
	cfg       LoaderConfig
	socketDir string

	mu    sync.Mutex
	live  map[closer]struct{}
	infos map[string]probe // by path
}

// closer is a running bot or engine.
type closer interface{ Close() }

type probe struct {
	mod  time.Time
	info botapi.Info
	err  error
}

// NewLoader creates the loader and its private socket directory.
func NewLoader(cfg LoaderConfig) (*Loader, error) {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	dir, err := socketDir()
	if err != nil {
		return nil, fmt.Errorf("create the bots' socket directory: %w", err)
	}
	return &Loader{cfg: cfg, socketDir: dir, live: map[closer]struct{}{}, infos: map[string]probe{}}, nil
}

// SocketDir is the directory holding the bots' unix sockets.
func (l *Loader) SocketDir() string { return l.socketDir }

// Names lists the bots found; an engine whose manifest is broken is listed
// as "NAME (broken: reason)".
func (l *Loader) Names() []string {
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
func (l *Loader) Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return nil, err
	}
	if e.Kind == botpath.Manifest {
		return l.startEngine(ctx, e, display, opts)
	}
	b, err := l.Start(ctx, name, display, opts)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// startEngine starts the engine of manifest entry e.
func (l *Loader) startEngine(ctx context.Context, e botpath.Entry, display string, opts map[string]string) (*enginebot.Engine, error) {
	m, err := manifest.Load(e.Path, e.Name)
	if err != nil {
		return nil, fmt.Errorf("engine %s is broken: %w", e.Name, err)
	}
	var eng *enginebot.Engine
	eng, err = enginebot.Start(ctx, enginebot.Config{
		Manifest: m, Display: display, Options: opts, Logger: l.cfg.Logger, StartTimeout: l.cfg.StartTimeout,
		OnClose: func() {
			l.mu.Lock()
			delete(l.live, eng)
			l.mu.Unlock()
		},
	})
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.live[eng] = struct{}{}
	l.mu.Unlock()
	return eng, nil
}

// Start starts plugin bot name and returns it; the loader kills it on
// Close. An engine manifest is refused: what needs a *Bot needs a plugin.
func (l *Loader) Start(ctx context.Context, name, display string, opts map[string]string) (*Bot, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return nil, err
	}
	if e.Kind != botpath.Plugin {
		return nil, fmt.Errorf("bot %s is an external engine (%s), not a plugin bot: this needs a plugin", name, e.Path)
	}
	path := e.Path
	b, err := start(ctx, name, display, path, opts, startConfig{
		StartTimeout: l.cfg.StartTimeout, SocketDir: l.socketDir, Logger: l.cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.live[b] = struct{}{}
	l.mu.Unlock()
	b.onKill = func() {
		l.mu.Lock()
		delete(l.live, b)
		l.mu.Unlock()
	}
	return b, nil
}

// Info returns what bot name says of itself, starting it once to ask
// (cached while the executable is unchanged). An engine is described from
// its manifest (enginebot.Info), without starting it; a broken manifest
// gives its reason.
func (l *Loader) Info(ctx context.Context, name string) (botapi.Info, error) {
	e, err := l.cfg.Finder.Lookup(name)
	if err != nil {
		return botapi.Info{}, err
	}
	if e.Kind == botpath.Manifest {
		m, err := manifest.Load(e.Path, e.Name)
		if err != nil {
			return botapi.Info{}, fmt.Errorf("engine %s is broken: %w", name, err)
		}
		return enginebot.Info(m), nil
	}
	path := e.Path
	st, err := os.Stat(path)
	if err != nil {
		return botapi.Info{}, fmt.Errorf("bot %s: %w", name, err)
	}
	l.mu.Lock()
	p, ok := l.infos[path]
	l.mu.Unlock()
	if ok && p.mod.Equal(st.ModTime()) {
		return p.info, p.err
	}
	b, err := l.Start(ctx, name, name, nil)
	p = probe{mod: st.ModTime(), err: err}
	if err == nil {
		p.info = b.Info()
		b.Close()
	}
	l.mu.Lock()
	l.infos[path] = p
	l.mu.Unlock()
	return p.info, p.err
}

// Plays reports whether a bot's description admits the rules.
func Plays(info botapi.Info, r engine.Rules) bool {
	kind := false
	for _, k := range info.Kinds {
		if strings.EqualFold(k, r.Kind.String()) {
			kind = true
		}
	}
	return kind && (info.MaxRows == 0 || r.Rows <= info.MaxRows) && (info.MaxCols == 0 || r.Cols <= info.MaxCols)
}

// CheckPlays says whether bot name plays rules: nil if it does, else an
// error "NAME does not play RULES (…)" naming what it plays (for an engine, the rules its manifest lists).
func (l *Loader) CheckPlays(ctx context.Context, name string, r engine.Rules) error {
	info, err := l.Info(ctx, name)
	if err != nil {
		return err
	}
	if e, lerr := l.cfg.Finder.Lookup(name); lerr == nil && e.Kind == botpath.Manifest {
		m, err := manifest.Load(e.Path, e.Name)
		if err != nil {
			return fmt.Errorf("engine %s is broken: %w", name, err)
		}
		if !m.Plays(r) {
			return fmt.Errorf("%s does not play %s (it plays %s, as its manifest lists)", name, r, m.RulesText())
		}
		return nil
	}
	if !Plays(info, r) {
		return fmt.Errorf("%s does not play %s (it plays %s up to %dx%d)", name, r, strings.Join(info.Kinds, ", "), info.MaxRows, info.MaxCols)
	}
	return nil
}

// Default names the strongest bot found that plays rules (ties: by name).
func (l *Loader) Default(ctx context.Context, r engine.Rules) (string, error) {
	type cand struct {
		name     string
		strength int
	}
	var cands []cand
	var broken []string
	for _, e := range l.cfg.Finder.List() {
		info, err := l.Info(ctx, e.Name)
		if err != nil {
			broken = append(broken, fmt.Sprintf("%s (%v)", e.Name, err))
			continue
		}
		plays := Plays(info, r)
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

// Close kills every bot still running and removes the socket directory.
func (l *Loader) Close() {
	l.mu.Lock()
	bots := make([]closer, 0, len(l.live))
	for b := range l.live {
		bots = append(bots, b)
	}
	l.mu.Unlock()
	var wg sync.WaitGroup
	for _, b := range bots {
		wg.Add(1)
		go func() { defer wg.Done(); b.Close() }()
	}
	wg.Wait()
	if err := os.RemoveAll(l.socketDir); err != nil {
		l.cfg.Logger.Warn("remove the bots' socket directory", "dir", l.socketDir, "error", err)
	}
}

// maxSocketDirLen leaves room in a unix socket path (108 bytes on Linux) for
// the names go-plugin adds below the directory (about 40 bytes).
const maxSocketDirLen = 60

// socketDir creates the directory for the bots' unix sockets in $TMPDIR, or
// in /tmp when $TMPDIR is too deep for a socket path.
func socketDir() (string, error) {
	dir, err := os.MkdirTemp("", "kinrow-bots-")
	if err != nil || len(dir) <= maxSocketDirLen {
		return dir, err
	}
	os.Remove(dir)
	return os.MkdirTemp("/tmp", "kinrow-bots-")
}
