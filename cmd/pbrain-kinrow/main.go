package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/pbrain"
	"github.com/kinrow/kinrow/host/pluginbot"
)

// namePrefix: an executable named pbrain-kinrow-NAME plays bot NAME.
const namePrefix = "pbrain-kinrow-"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[0], os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// botOfExecutable returns NAME for an executable called pbrain-kinrow-NAME
// (with or without .exe), "" otherwise.
func botOfExecutable(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if name, ok := strings.CutPrefix(base, namePrefix); ok {
		return name
	}
	return ""
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func run(ctx context.Context, argv0 string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(filepath.Base(argv0), flag.ContinueOnError)
	fs.SetOutput(stderr)
	level := os.Getenv("KINROW_LOG")
	if level == "" {
		level = "info"
	}
	var opts listFlag
	logLevel := fs.String("log-level", level, "log level on stderr: trace, debug, info, warn, error, off (env KINROW_LOG)")
	startTimeout := fs.Duration("bot-start-timeout", pluginbot.DefaultStartTimeout, "how long a bot may take to start")
	bot := fs.String("bot", botOfExecutable(argv0), "the bot that plays (default: NAME of pbrain-kinrow-NAME, else the strongest installed)")
	fs.Var(&opts, "bot-opt", "an option for the bot, KEY=VALUE (repeatable)")
	margin := fs.Duration("margin", pbrain.DefaultMargin, "safety margin before a move's limit (see kinrow pbrain -h)")
	turn := fs.Duration("turn", pbrain.DefaultTurn, "the move limit when the manager sends no INFO timeout_turn")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "%s: "+format+"\n", append([]any{fs.Name()}, a...)...)
		return 2
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	if *bot != "" {
		if err := botpath.ValidName(*bot); err != nil {
			return bad("--bot: %v", err)
		}
	}
	optMap := map[string]string{}
	for _, o := range opts {
		k, v, found := strings.Cut(o, "=")
		if !found || k == "" {
			return bad("--bot-opt %q: want KEY=VALUE", o)
		}
		optMap[k] = v
	}
	if *margin <= 0 || *margin > time.Minute {
		return bad("--margin %v: want a duration from 1ms to 1m, e.g. 200ms", *margin)
	}
	if *turn <= 0 {
		return bad("--turn %v: want a positive duration, e.g. 5s", *turn)
	}
	lvl := hclog.LevelFromString(*logLevel)
	if lvl == hclog.NoLevel {
		return bad("invalid --log-level %q: accepted are trace, debug, info, warn, error, off", *logLevel)
	}
	log := hclog.New(&hclog.LoggerOptions{Name: fs.Name(), Level: lvl, Output: stderr})
	exe, _ := os.Executable()
	loader, err := pluginbot.NewLoader(pluginbot.LoaderConfig{
		Finder:       botpath.Default(os.Getenv(botpath.EnvVar), exe),
		StartTimeout: *startTimeout,
		Logger:       log,
	})
	if err != nil {
		fmt.Fprintln(stderr, fs.Name()+":", err)
		return 1
	}
	b := pbrain.New(pbrain.Config{
		Loader: loader, Bot: *bot, Options: optMap, Margin: *margin, DefaultTurn: *turn,
		Logger: log, Version: version(),
	})
	if err := b.Serve(ctx, stdin, stdout); err != nil {
		if errors.Is(err, context.Canceled) {
			log.Warn("interrupted: bots stopped")
			return 130
		}
		log.Error("session ended", "error", err)
		return 1
	}
	return 0
}

// version is the module version of the build, or a development version.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "0.1.0-dev"
}
