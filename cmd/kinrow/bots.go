package main

// Every use of the bot packages (pluginbot, referee, gtpfront, pbrain,
// botapi) is in this file: the rest of cmd/kinrow wires flags to it.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/containflags"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/pbrain"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/registry"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// hostFlags are the flags of the subcommands that start bots, defined
// once here: --log-level, --bot-start-timeout, --grace and the
// containment flags.
type hostFlags struct {
	logLevel     string
	startTimeout time.Duration
	grace        time.Duration
	// gomocupTolerance, when set, overrides every manifest's tolerance
	// (kinrow match --gomocup-tolerance, given explicitly).
	gomocupTolerance *time.Duration
	contain          containFlags
}

// addLog adds --log-level (every subcommand that logs).
func (h *hostFlags) addLog(fs *pflag.FlagSet) {
	def := os.Getenv("KINROW_LOG")
	if def == "" {
		def = "info"
	}
	fs.StringVar(&h.logLevel, "log-level", def, "log level on stderr: trace, debug, info, warn, error, off (env KINROW_LOG)")
}

// addBots adds --log-level, --bot-start-timeout and the containment flags
// (every subcommand that starts bots); grace adds --grace too.
func (h *hostFlags) addBots(fs *pflag.FlagSet, grace bool) {
	h.addLog(fs)
	fs.DurationVar(&h.startTimeout, "bot-start-timeout", pluginbot.DefaultStartTimeout, "how long a bot may take to start (plugin handshake)")
	if grace {
		fs.DurationVar(&h.grace, "grace", referee.DefaultGrace, "time after a move's deadline before the bot forfeits")
	}
	h.contain.register(fs)
}

func (h *hostFlags) logger(stderr io.Writer) (hclog.Logger, error) {
	level := hclog.LevelFromString(h.logLevel)
	if level == hclog.NoLevel {
		return nil, fmt.Errorf("invalid --log-level %q: accepted are trace, debug, info, warn, error, off", h.logLevel)
	}
	return hclog.New(&hclog.LoggerOptions{Name: "kinrow", Level: level, Output: stderr}), nil
}

func (h *hostFlags) loader(log hclog.Logger) (*registry.Registry, error) {
	containflags.LogContainment(log, h.contain.sandbox.Mode)
	if err := containflags.CheckSandbox(h.contain.sandbox.Mode); err != nil {
		return nil, err
	}
	exe, _ := os.Executable()
	return registry.New(registry.Config{
		Finder: botpath.Default(os.Getenv(botpath.EnvVar), exe), StartTimeout: h.startTimeout,
		GomocupTolerance: h.gomocupTolerance, Logger: log, Containment: h.contain.containment(), Verify: h.contain.verify,
	})
}

// containFlags are what every host subcommand holds its bots to.
type containFlags struct {
	memory  containflags.Memory
	env     containflags.Env
	verify  bool
	suspend containflags.Suspend
	mtls    bool
	sandbox containflags.Sandbox
	network bool
}

func (c *containFlags) register(fs *pflag.FlagSet) {
	fs.Var(&c.memory, "bot-memory", "cap each bot's memory with its children's, e.g. 350M or 2GiB (over it the bot forfeits: memory)")
	fs.Var(&c.env, "bot-env", "pass host environment variable NAME through to the bots (repeatable; bots get only PATH, HOME, TMPDIR, LANG and KINROW_* otherwise)")
	fs.BoolVar(&c.verify, "verify-bots", false, "refuse a bot without a matching SHA-256 in "+registry.LockFile+" beside it (kinrow bots lock)")
	fs.BoolVar(&c.mtls, "bot-mtls", false, "talk to plugin bots over mutual TLS (a certificate per bot; docs/RELIABILITY.md)")
	fs.Var(&c.sandbox, "sandbox", "run each bot in a sandbox: auto (the default: the full sandbox where the kernel allows it, else what it can, logged), require (refuse a bot without the full sandbox) or off (docs/RELIABILITY.md)")
	fs.BoolVar(&c.network, "bot-network", false, "let sandboxed bots use the host's network (otherwise they have a loopback of their own only)")
	fs.Var(&c.suspend, "bot-suspend", "suspend plugin bots, with everything they started, from their answer to their next request (no thinking on the opponent's time); --bot-suspend=NAME,NAME for those bots only")
	fs.Lookup("bot-suspend").NoOptDefVal = "true"
}

func (c *containFlags) containment() pluginbot.Containment {
	return pluginbot.Containment{Memory: int64(c.memory), Env: c.env, SuspendAll: c.suspend.All, Suspend: c.suspend.Names, MTLS: c.mtls,
		Sandbox: c.sandbox.Mode, Network: c.network}
}

// writeLocks is kinrow bots lock: the lock file of the bots' SHA-256.
func writeLocks(stdout io.Writer) error {
	exe, _ := os.Executable()
	written, err := registry.WriteLocks(botpath.Default(os.Getenv(botpath.EnvVar), exe))
	for _, w := range written {
		fmt.Fprintln(stdout, "wrote", w)
	}
	if err == nil && len(written) == 0 {
		err = errors.New("no bots found")
	}
	return err
}

// serveSession speaks the text protocol on stdin/stdout (kinrow serve).
func serveSession(ctx context.Context, loader *registry.Registry, hf *hostFlags, rules engine.Rules, bot string, movetime time.Duration,
	log hclog.Logger, stdin io.Reader, stdout io.Writer) error {
	s := gtpfront.New(gtpfront.Config{
		Loader: loader, Rules: rules, DefaultBot: bot, Grace: hf.grace,
		MoveTime: movetime, Logger: log, Version: version(),
	})
	return s.Serve(ctx, stdin, stdout)
}

// defaultMoveTime is kinrow serve's time per move.
const defaultMoveTime = referee.DefaultMoveTime

// brainFlags are kinrow pbrain's own flags.
type brainFlags struct {
	bot          string
	opts         []string
	margin, turn time.Duration
}

func (b *brainFlags) register(fs *pflag.FlagSet, bot string) {
	fs.StringVar(&b.bot, "bot", bot, "the bot that plays (default: the strongest installed that plays the board)")
	fs.StringArrayVar(&b.opts, "bot-opt", nil, "an option for the bot, `KEY=VALUE` (repeatable)")
	fs.DurationVar(&b.margin, "margin", pbrain.DefaultMargin, "safety margin: the bot's deadline is the move's limit minus this, and the brain answers by the limit minus half of it")
	fs.DurationVar(&b.turn, "turn", pbrain.DefaultTurn, "the move limit when the manager sends no INFO timeout_turn")
}

// brainSession serves one Gomocup session on stdin/stdout (kinrow pbrain).
func brainSession(ctx context.Context, b *brainFlags, opts map[string]string, loader *registry.Registry, log hclog.Logger, stdin io.Reader, stdout io.Writer) error {
	cfg := pbrain.Config{Bot: b.bot, Options: opts, Margin: b.margin, DefaultTurn: b.turn, Version: version(), Loader: loader, Logger: log.Named("pbrain")}
	return pbrain.New(cfg).Serve(ctx, stdin, stdout)
}

// solveStreams starts jobs copies of bot and opens a solve stream on each.
func solveStreams(ctx context.Context, loader *registry.Registry, bot string, jobs int, opts map[string]string) ([]botapi.SolveStream, func(), error) {
	var bots []*pluginbot.Bot
	closeAll := func() {
		for _, b := range bots {
			b.Close()
		}
	}
	streams := make([]botapi.SolveStream, jobs)
	for i := range streams {
		display := bot
		if i > 0 {
			display = fmt.Sprintf("%s#%d", bot, i+1)
		}
		b, err := loader.Start(ctx, bot, display, opts)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--bot: %w", err)
		}
		bots = append(bots, b)
		if streams[i], err = b.Solve(ctx); err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--bot %s cannot solve: %w", bot, err)
		}
	}
	return streams, closeAll, nil
}

// checkMatchBots makes sure every bot exists and plays the rules before
// any game starts.
func checkMatchBots(ctx context.Context, loader *registry.Registry, cfg *match.Config) error {
	for _, b := range cfg.Bots {
		if _, err := loader.Info(ctx, b.Name); err != nil {
			return fmt.Errorf("--bot %s: %w", b.Name, err)
		}
		if err := loader.CheckPlays(ctx, b.Name, cfg.Rules); err != nil {
			return fmt.Errorf("--bot %w", err)
		}
	}
	return nil
}

// lockFile is the name of the bots' lock file (kinrow bots lock).
const lockFile = registry.LockFile
