package botflags

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/containflags"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/refkey"
	"github.com/kinrow/kinrow/host/registry"
)

// Host are the flags of the subcommands that start bots.
type Host struct {
	LogLevel     string
	StartTimeout time.Duration
	Grace        time.Duration
	// GomocupTolerance, when set, overrides every manifest's tolerance
	// (kinrow match --gomocup-tolerance, given explicitly).
	GomocupTolerance *time.Duration
	Contain          Contain
	// Deny lists host paths no bot's box may see, nor any directory above
	// them: the records being written (kinrow match --out). The referee's
	// key directory is always among them.
	Deny []string
}

// AddLog adds --log-level (every subcommand that logs).
func (h *Host) AddLog(fs *pflag.FlagSet) {
	def := os.Getenv("KINROW_LOG")
	if def == "" {
		def = "info"
	}
	fs.StringVar(&h.LogLevel, "log-level", def, "log level on stderr: trace, debug, info, warn, error, off (env KINROW_LOG)")
}

// AddBots adds --log-level, --bot-start-timeout and the containment flags
// (every subcommand that starts bots); grace adds --grace too.
func (h *Host) AddBots(fs *pflag.FlagSet, grace bool) {
	h.AddLog(fs)
	fs.DurationVar(&h.StartTimeout, "bot-start-timeout", pluginbot.DefaultStartTimeout, "how long a bot may take to start (plugin handshake)")
	if grace {
		fs.DurationVar(&h.Grace, "grace", referee.DefaultGrace, "time after a move's deadline before the bot forfeits")
	}
	h.Contain.Register(fs)
}

// Logger is the logger --log-level asks for, writing to stderr.
func (h *Host) Logger(stderr io.Writer) (hclog.Logger, error) {
	level := hclog.LevelFromString(h.LogLevel)
	if level == hclog.NoLevel {
		return nil, fmt.Errorf("invalid --log-level %q: accepted are trace, debug, info, warn, error, off", h.LogLevel)
	}
	return hclog.New(&hclog.LoggerOptions{Name: "kinrow", Level: level, Output: stderr}), nil
}

// Loader is the registry of the bots on $KINROW_BOT_PATH and beside the
// executable, starting them as the flags say; it refuses --sandbox=require
// where the kernel gives no full sandbox.
func (h *Host) Loader(log hclog.Logger) (*registry.Registry, error) {
	mode := h.Contain.sandbox.Mode
	var sb procrun.SandboxStatus
	if mode != procrun.SandboxOff {
		sb = procrun.SandboxDetect()
	}
	limits := containflags.Limits(h.Contain.Settings(), procrun.Detect(), sb)
	containflags.LogContainment(log, mode, limits)
	if err := containflags.CheckSandbox(mode); err != nil {
		return nil, err
	}
	if err := containflags.CheckLimits(mode, limits); err != nil {
		return nil, err
	}
	deny := slices.Clone(h.Deny)
	if dir, err := refkey.Dir(); err == nil {
		deny = append(deny, dir) // a bot that read the key could sign forged records
	}
	return registry.New(registry.Config{
		Finder: finder(), StartTimeout: h.StartTimeout,
		GomocupTolerance: h.GomocupTolerance, Logger: log, Containment: h.Contain.Containment(), Verify: h.Contain.verify,
		Deny: deny,
	})
}

// finder looks for bots on $KINROW_BOT_PATH and beside the executable.
func finder() botpath.Finder {
	exe, _ := os.Executable()
	return botpath.Default(os.Getenv(botpath.EnvVar), exe)
}

// Contain are what every host subcommand holds its bots to.
type Contain struct {
	memory  containflags.Size
	pids    containflags.Pids
	fsize   containflags.Size
	cpus    containflags.CPUs
	env     containflags.Env
	verify  bool
	suspend containflags.Suspend
	mtls    bool
	sandbox containflags.Sandbox
	network bool
}

// Register adds the containment flags to fs.
func (c *Contain) Register(fs *pflag.FlagSet) {
	fs.Var(&c.memory, "bot-memory", fmt.Sprintf("cap each bot's memory with its children's, e.g. 350M or 2GiB, or none (over it the bot forfeits: memory; default %s where a cgroup can hold it, else none; a manifest's max_memory wins)", procrun.FormatSize(procrun.DefaultMemory)))
	fs.Var(&c.pids, "bot-pids", fmt.Sprintf("cap how many tasks (processes and threads) each bot may have at once with its children, or none (default %d)", procrun.DefaultPids))
	fs.Var(&c.fsize, "bot-file-size", fmt.Sprintf("cap the size of any file a bot writes (RLIMIT_FSIZE), e.g. 64M, or none (default %s)", procrun.FormatSize(procrun.DefaultFileSize)))
	fs.Var(&c.cpus, "bot-cpus", "cap each bot's CPU time per second with its children's, in CPUs (e.g. 0.5 or 2; default none: the side not to move is suspended instead, --bot-suspend)")
	fs.Var(&c.env, "bot-env", "pass host environment variable NAME through to the bots (repeatable; bots get only PATH, HOME, TMPDIR, LANG and KINROW_* otherwise)")
	fs.BoolVar(&c.verify, "verify-bots", false, "refuse a bot without a matching SHA-256 in "+registry.LockFile+" beside it (kinrow bots lock)")
	fs.BoolVar(&c.mtls, "bot-mtls", false, "talk to plugin bots over mutual TLS (a certificate per bot; docs/RELIABILITY.md)")
	fs.Var(&c.sandbox, "sandbox", "run each bot in a sandbox: auto (the default: the full sandbox where the kernel allows it, else what it can, logged), require (refuse a bot without the full sandbox) or off (docs/RELIABILITY.md)")
	fs.BoolVar(&c.network, "bot-network", false, "let sandboxed bots use the host's network (otherwise they have a loopback of their own only)")
	c.suspend.All = true
	fs.Var(&c.suspend, "bot-suspend", "suspend plugin bots, with everything they started, from their answer to their next request (no thinking on the opponent's time; on by default); --bot-suspend=NAME,NAME for those bots only, --bot-suspend=false for none")
	fs.Lookup("bot-suspend").NoOptDefVal = "true"
}

// Containment is what the flags ask of the bot processes.
func (c *Contain) Containment() pluginbot.Containment {
	return pluginbot.Containment{Memory: c.memory.Bytes(procrun.DefaultMemoryCap()), Limits: c.Limits(), Env: c.env, SuspendAll: c.suspend.All, Suspend: c.suspend.Names, MTLS: c.mtls,
		Sandbox: c.sandbox.Mode, Network: c.network}
}

// Settings are the limits the flags ask, for containflags.Limits.
func (c *Contain) Settings() containflags.Settings {
	return containflags.Settings{Memory: c.memory.Bytes(procrun.DefaultMemoryCap()), MemoryGiven: c.memory != 0,
		Limits: c.Limits(), Suspend: c.suspend.All, Mode: c.sandbox.Mode}
}

// Limits are the limits the flags ask beyond memory: the defaults
// (procrun.DefaultLimits) unless changed.
func (c *Contain) Limits() procrun.Limits {
	def := procrun.DefaultLimits()
	return procrun.Limits{Pids: c.pids.Limit(def.Pids), FileSize: c.fsize.Bytes(def.FileSize), CPUs: float64(c.cpus)}
}

// Options reads --bot-opt KEY=VALUE options.
func Options(list []string) (map[string]string, error) {
	m := map[string]string{}
	for _, o := range list {
		k, v, found := strings.Cut(o, "=")
		if !found || k == "" {
			return nil, fmt.Errorf("--bot-opt %q: want KEY=VALUE", o)
		}
		m[k] = v
	}
	return m, nil
}

// WriteLocks is kinrow bots lock: it writes the lock file of the bots'
// SHA-256 beside the bots found, naming each file written on stdout.
func WriteLocks(stdout io.Writer) error {
	written, err := registry.WriteLocks(finder())
	for _, w := range written {
		fmt.Fprintln(stdout, "wrote", w)
	}
	if err == nil && len(written) == 0 {
		err = errors.New("no bots found")
	}
	return err
}
