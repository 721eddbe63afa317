package pluginbot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/host/procrun"
)

// Config sets up a Runner.
type Config struct {
	StartTimeout time.Duration // default DefaultStartTimeout
	Logger       hclog.Logger  // default: a null logger
	// Containment caps every bot's memory and names the host environment
	// variables passed through to it.
	Containment Containment
}

// Runner starts plugin bots and keeps track of them: it owns the private
// directory of their unix sockets (kinrow-bots-PID-* in the temporary
// directory) and, at Close, kills every bot still running and removes it.
// Which bot to start, from which file, checked against which lock, is
// host/registry's business: a Runner starts the file it is given.
type Runner struct {
	cfg       Config
	socketDir string

	mu   sync.Mutex
	live map[*Bot]struct{}
}

// NewRunner creates the runner and its private socket directory, after
// removing the cgroups and socket directories of hosts that are gone (a
// host killed by SIGKILL cannot remove its own).
func NewRunner(cfg Config) (*Runner, error) {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	for _, cg := range procrun.RemoveStale() {
		cfg.Logger.Info("removed the cgroup of a host that is gone", "cgroup", cg)
	}
	for _, parent := range socketParents() {
		for _, d := range removeStaleSocketDirs(parent) {
			cfg.Logger.Info("removed the socket directory of a host that is gone", "dir", d)
		}
	}
	dir, err := socketDir()
	if err != nil {
		return nil, fmt.Errorf("create the bots' socket directory: %w", err)
	}
	return &Runner{cfg: cfg, socketDir: dir, live: map[*Bot]struct{}{}}, nil
}

// SocketDir is the directory holding the bots' unix sockets.
func (r *Runner) SocketDir() string { return r.socketDir }

// Spec is one bot to start.
type Spec struct {
	// Name is the bot's name (kinrow-bot-NAME), Display its name in
	// records and logs (e.g. "random#2"), Path its executable.
	Name, Display, Path string
	// Options are given to the bot with every NewGame.
	Options map[string]string
	// Memory caps the bot's memory in bytes (0: the runner's
	// Containment.Memory).
	Memory int64
	// Exe, when set, is the bot's executable, open and verified
	// (--verify-bots): what runs. Start takes it over and closes it.
	Exe *os.File
}

// Start starts the bot of s and completes the plugin handshake; the runner
// kills it at Close if it still runs.
func (r *Runner) Start(ctx context.Context, s Spec) (*Bot, error) {
	c := r.cfg.Containment
	if s.Memory > 0 {
		c.Memory = s.Memory
	}
	if s.Display == "" {
		s.Display = s.Name
	}
	b, err := start(ctx, s.Name, s.Display, s.Path, s.Options, startConfig{
		StartTimeout: r.cfg.StartTimeout, SocketDir: r.socketDir, Logger: r.cfg.Logger, Containment: c, Exe: s.Exe,
	})
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.live[b] = struct{}{}
	r.mu.Unlock()
	b.onKill = func() {
		r.mu.Lock()
		delete(r.live, b)
		r.mu.Unlock()
	}
	return b, nil
}

// Live is how many bots the runner has running (started and not yet
// closed or killed).
func (r *Runner) Live() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.live)
}

// Close kills every bot still running and removes the socket directory.
func (r *Runner) Close() {
	r.mu.Lock()
	bots := make([]*Bot, 0, len(r.live))
	for b := range r.live {
		bots = append(bots, b)
	}
	r.mu.Unlock()
	procrun.CloseAll(bots)
	if err := os.RemoveAll(r.socketDir); err != nil {
		r.cfg.Logger.Warn("remove the bots' socket directory", "dir", r.socketDir, "error", err)
	}
}

// maxSocketDirLen leaves room in a unix socket path (108 bytes on Linux) for
// the names go-plugin adds below the directory (about 40 bytes).
const maxSocketDirLen = 60

// socketDirPrefix begins the name of every socket directory:
// kinrow-bots-PID-RANDOM, where PID is the owner's process id.
const socketDirPrefix = "kinrow-bots-"

// socketDir creates the directory for the bots' unix sockets in $TMPDIR, or
// in /tmp when $TMPDIR is too deep for a socket path, named after this
// process (kinrow-bots-PID-RANDOM) so that a later host can tell whether
// its owner is gone.
func socketDir() (string, error) {
	pattern := fmt.Sprintf("%s%d-", socketDirPrefix, os.Getpid())
	dir, err := os.MkdirTemp("", pattern)
	if err != nil || len(dir) <= maxSocketDirLen {
		return dir, err
	}
	os.Remove(dir)
	return os.MkdirTemp("/tmp", pattern)
}

// socketParents lists the directories a socket directory may be in.
func socketParents() []string {
	if tmp := os.TempDir(); tmp != "/tmp" {
		return []string{tmp, "/tmp"}
	}
	return []string{"/tmp"}
}

// removeStaleSocketDirs removes, in parent, the socket directories whose
// owner process is gone: kinrow-bots-PID-* directories of this user whose
// PID runs no process. A live owner's directory (whoever's process that
// PID is now), another user's, or anything else is left alone. It returns
// the directories removed.
func removeStaleSocketDirs(parent string) []string {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var removed []string
	for _, ent := range ents {
		pid, ok := socketDirOwner(ent.Name())
		if !ok || !ent.IsDir() || procrun.PIDAlive(pid) {
			continue
		}
		dir := filepath.Join(parent, ent.Name())
		st, err := os.Lstat(dir)
		if err != nil || !st.IsDir() {
			continue
		}
		if !ownedByMe(st) {
			continue
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

// socketDirOwner returns the PID in a socket directory's name,
// kinrow-bots-PID-RANDOM.
func socketDirOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, socketDirPrefix)
	if !ok {
		return 0, false
	}
	digits, random, ok := strings.Cut(rest, "-")
	if !ok || random == "" || digits == "" || digits[0] == '0' || len(digits) > 9 {
		return 0, false
	}
	pid := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		pid = pid*10 + int(c-'0')
	}
	return pid, pid > 0
}
