package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/term"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/referee"
)

// exitUsage is the exit status for bad command-line input.
const exitUsage = 2

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Ctrl-C, SIGTERM and SIGHUP (the terminal closed, or a supervisor's
	// stop) end the session the same way: every subcommand stops its games
	// and bots, the match prints the summary of the finished games, and the
	// loader's cleanup runs. Without SIGHUP here its default action killed
	// kinrow with no summary and its bots' sockets left behind.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Installed as pbrain-kinrow or pbrain-kinrow-NAME (make copies the
	// binary so), kinrow is a Gomocup brain playing the default bot or NAME.
	if bot, ok := brainOfExecutable(os.Args[0]); ok {
		return namedBrainCmd(ctx, bot, args, stdin, stdout, stderr)
	}
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return serve(ctx, args[1:], stdin, stdout, stderr)
		case "match":
			return matchCmd(ctx, args[1:], stdout, stderr)
		case "merge":
			return mergeCmd(ctx, args[1:], stdout, stderr)
		case "solve":
			return solveCmd(ctx, args[1:], stdin, stdout, stderr)
		case "pbrain":
			return pbrainCmd(ctx, args[1:], stdin, stdout, stderr)
		case "export":
			return exportCmd(args[1:], stdout, stderr)
		case "import":
			return importCmd(args[1:], stdin, stdout, stderr)
		case "view":
			return viewCmd(ctx, args[1:], stdout, stderr)
		case "ratings":
			return ratingsCmd(ctx, args[1:], stdin, stdout, stderr)
		case "java-manifest":
			return javaManifestCmd(ctx, args[1:], stdout, stderr)
		case "doctor":
			return doctorCmd(args[1:], stdout, stderr)
		case "bots":
			return botsCmd(args[1:], stdout, stderr)
		case "book":
			return runCobra(ctx, newBookCmd(), args[1:], stdout, stderr)
		case "openings":
			return runCobra(ctx, newOpeningsCmd(), args[1:], stdout, stderr)
		case "help", "-h", "--help", "-help":
			usage(stdout)
			return 0
		case "version", "--version":
			fmt.Fprintln(stdout, "kinrow", version())
			return 0
		}
	}
	return serve(ctx, args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `kinrow: the k-in-a-row host.

Usage:
  kinrow [serve] [flags]   speak the text protocol on stdin/stdout (docs/PROTOCOL.md)
  kinrow match [flags]     play automated matches and tournaments (docs/MATCHES.md)
  kinrow merge OUT IN...   join the record files of a match's shards (docs/SCALE.md)
  kinrow solve [flags]     solve positions read from stdin (kinrow solve -h)
  kinrow pbrain [flags]    be a Gomocup brain on stdin/stdout (kinrow pbrain -h)
  kinrow export [flags]    write records as PSQ, SGF, move lists or SVG (docs/VIEWER.md)
  kinrow import [flags]    read PSQ and SGF games as openings (kinrow import -h)
  kinrow view [flags]      replay records in a local web page (docs/VIEWER.md)
  kinrow ratings FILE...   rate every bot of match records (kinrow ratings -h)
  kinrow java-manifest     an engine manifest for a course Java player (kinrow java-manifest -h)
  kinrow doctor            say how bots are contained on this machine (docs/RELIABILITY.md)
  kinrow bots lock         write the bots' SHA-256 lock file (docs/RELIABILITY.md)
  kinrow book build        solve every Connect-X position up to N plies into an opening book (docs/BOTS.md)
  kinrow openings          write balanced openings, proven or searched (docs/MATCHES.md)
  kinrow help              this text
  kinrow version           the version

Run "kinrow serve -h" for the flags.
`)
}

// hostFlags are the flags every host subcommand shares.
type hostFlags struct {
	logLevel     string
	startTimeout time.Duration
	grace        time.Duration
	// gomocupTolerance, when set, overrides every manifest's tolerance
	// (kinrow match --gomocup-tolerance, given explicitly).
	gomocupTolerance *time.Duration
	// contain holds the bots' memory cap, environment and lock check
	// (--bot-memory, --bot-env, --verify-bots: bots.go).
	contain containFlags
}

func (h *hostFlags) register(fs *flag.FlagSet) {
	def := os.Getenv("KINROW_LOG")
	if def == "" {
		def = "info"
	}
	fs.StringVar(&h.logLevel, "log-level", def, "log level on stderr: trace, debug, info, warn, error, off (env KINROW_LOG)")
	fs.DurationVar(&h.startTimeout, "bot-start-timeout", pluginbot.DefaultStartTimeout, "how long a bot may take to start (plugin handshake)")
	fs.DurationVar(&h.grace, "grace", referee.DefaultGrace, "time after a move's deadline before the bot forfeits")
	h.contain.register(fs)
}

func (h *hostFlags) logger(stderr io.Writer) (hclog.Logger, error) {
	level := hclog.LevelFromString(h.logLevel)
	if level == hclog.NoLevel {
		return nil, fmt.Errorf("invalid --log-level %q: accepted are trace, debug, info, warn, error, off", h.logLevel)
	}
	return hclog.New(&hclog.LoggerOptions{Name: "kinrow", Level: level, Output: stderr}), nil
}

func (h *hostFlags) loader(log hclog.Logger) (*pluginbot.Loader, error) {
	logContainment(log, h.contain.sandbox.mode)
	if err := checkSandbox(h.contain.sandbox.mode); err != nil {
		return nil, err
	}
	exe, _ := os.Executable()
	return pluginbot.NewLoader(pluginbot.LoaderConfig{
		Finder:           botpath.Default(os.Getenv(botpath.EnvVar), exe),
		StartTimeout:     h.startTimeout,
		GomocupTolerance: h.gomocupTolerance,
		Logger:           log,
		Containment:      h.contain.containment(),
		Verify:           h.contain.verify,
	})
}

func serve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs)
	rulesText := fs.String("rules", "connect4", "the game at start: "+engine.RulesSyntax)
	bot := fs.String("bot", "", "default bot for a side with none loaded (default: the strongest installed that plays the rules)")
	movetime := fs.Duration("movetime", referee.DefaultMoveTime, "time per move (kinrow-movetime changes it)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kinrow: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	log, err := hf.logger(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow:", err)
		return exitUsage
	}
	rules, err := engine.ParseRules(*rulesText)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow: --rules:", err)
		return exitUsage
	}
	if *bot != "" {
		if err := botpath.ValidName(*bot); err != nil {
			fmt.Fprintln(stderr, "kinrow: --bot:", err)
			return exitUsage
		}
	}
	loader, err := hf.loader(log)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow:", err)
		return 1
	}
	// Ctrl-C, SIGTERM or SIGHUP: stop every bot (whole process groups) and leave.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			log.Warn("interrupted: stopping bots")
			loader.Close()
			os.Exit(130)
		case <-done:
		}
	}()
	s := gtpfront.New(gtpfront.Config{
		Loader: loader, Rules: rules, DefaultBot: *bot, Grace: hf.grace,
		MoveTime: *movetime, Logger: log, Version: version(),
	})
	if onTerminal(stdin) && onTerminal(stdout) {
		// A person at a terminal gets a greeting; a GTP controller (pipes)
		// sees nothing it did not ask for.
		fmt.Fprintf(stderr, "kinrow %s: %s. Type help for the commands, quit to leave.\n", version(), rules)
	}
	if err := s.Serve(ctx, stdin, stdout); err != nil && !errors.Is(err, context.Canceled) {
		log.Error("session ended", "error", err)
		return 1
	}
	return 0
}

// onTerminal reports whether f is a terminal (not a pipe or a file).
func onTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// version is the module version of the build, or "dev".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "0.1.0-dev"
}
