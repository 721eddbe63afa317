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
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// LoaderConfig sets up a Loader.
type LoaderConfig struct {
	Finder       botpath.Finder
	StartTimeout time.Duration // default DefaultStartTimeout
	Logger       hclog.Logger  // default: a null logger
}

// Loader finds, starts and keeps track of bot processes; Close kills every
// one still running and removes the socket directory.
type Loader struct {
	cfg       LoaderConfig
	socketDir string

	mu    sync.Mutex
	live  map[*Bot]struct{}
	infos map[string]probe // by path
}

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
	return &Loader{cfg: cfg, socketDir: dir, live: map[*Bot]struct{}{}, infos: map[string]probe{}}, nil
}

// SocketDir is the directory holding the bots' unix sockets.
func (l *Loader) SocketDir() string { return l.socketDir }

// Names lists the bots found.
func (l *Loader) Names() []string {
	var names []string
	for _, e := range l.cfg.Finder.List() {
		names = append(names, e.Name)
	}
	return names
}

// Load starts bot name as a player called display.
func (l *Loader) Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error) {
	b, err := l.Start(ctx, name, display, opts)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Start starts bot name and returns it; the loader kills it on Close.
func (l *Loader) Start(ctx context.Context, name, display string, opts map[string]string) (*Bot, error) {
	path, err := l.cfg.Finder.Find(name)
	if err != nil {
		return nil, err
	}
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
// (cached while the executable is unchanged).
func (l *Loader) Info(ctx context.Context, name string) (botapi.Info, error) {
	path, err := l.cfg.Finder.Find(name)
	if err != nil {
		return botapi.Info{}, err
	}
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
		if Plays(info, r) {
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
	bots := make([]*Bot, 0, len(l.live))
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
