package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/pbrain"
	"github.com/kinrow/kinrow/host/pluginbot"
)

const pbrainUsage = `Usage: kinrow pbrain [--bot NAME] [--bot-opt KEY=VALUE ...] [--margin D]

Speaks the brain side of the Gomocup protocol (Piskvork, Gomocup's judge) on
stdin/stdout with a kinrow bot: START, RECTSTART, RESTART, BEGIN, TURN,
BOARD ... DONE, INFO, TAKEBACK, PLAY, END, ABOUT. Freestyle (rule 0) on boards
from 5 to 128. bin/pbrain-kinrow and bin/pbrain-kinrow-NAME are the same brain
for managers that look for pbrain-* executables. See docs/PROTOCOL.md.

`

// pbrainCmd runs `kinrow pbrain`.
func pbrainCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow pbrain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), pbrainUsage)
		fs.PrintDefaults()
	}
	cfg, hf, ok := pbrainFlags(fs, args, "")
	if !ok {
		return exitUsage
	}
	if cfg == nil {
		return 0
	}
	return runBrain(ctx, *cfg, hf, stdin, stdout, stderr)
}

// brainPrefix: an executable named pbrain-kinrow or pbrain-kinrow-NAME is a
// Gomocup brain (playing the default bot or bot NAME).
const brainPrefix = "pbrain-kinrow"

// brainOfExecutable reports whether argv0 names a brain executable, and the
// bot its name selects ("" for pbrain-kinrow itself).
func brainOfExecutable(argv0 string) (bot string, ok bool) {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	rest, ok := strings.CutPrefix(base, brainPrefix)
	if !ok {
		return "", false
	}
	if rest == "" {
		return "", true
	}
	if name, ok := strings.CutPrefix(rest, "-"); ok {
		return name, true
	}
	return "", false
}

// namedBrainCmd runs the brain as pbrain-kinrow[-NAME]: the flags of
// `kinrow pbrain`, with --bot defaulting to NAME.
func namedBrainCmd(ctx context.Context, bot string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(brainPrefix, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), pbrainUsage)
		fs.PrintDefaults()
	}
	cfg, hf, ok := pbrainFlags(fs, args, bot)
	if !ok {
		return exitUsage
	}
	if cfg == nil {
		return 0
	}
	return runBrain(ctx, *cfg, hf, stdin, stdout, stderr)
}

// pbrainFlags registers and parses the brain's flags; bot is the default of
// --bot. It returns a nil config after -h, and ok false on bad input (the
// error is printed).
func pbrainFlags(fs *flag.FlagSet, args []string, bot string) (*pbrain.Config, hostFlags, bool) {
	def := os.Getenv("KINROW_LOG")
	if def == "" {
		def = "info"
	}
	var hf hostFlags
	var opts listFlag
	fs.StringVar(&hf.logLevel, "log-level", def, "log level on stderr: trace, debug, info, warn, error, off (env KINROW_LOG)")
	fs.DurationVar(&hf.startTimeout, "bot-start-timeout", pluginbot.DefaultStartTimeout, "how long a bot may take to start (plugin handshake)")
	hf.contain.register(fs)
	name := fs.String("bot", bot, "the bot that plays (default: the strongest installed that plays the board)")
	fs.Var(&opts, "bot-opt", "an option for the bot, KEY=VALUE (repeatable)")
	margin := fs.Duration("margin", pbrain.DefaultMargin, "safety margin: the bot's deadline is the move's limit minus this, and the brain answers by the limit minus half of it")
	turn := fs.Duration("turn", pbrain.DefaultTurn, "the move limit when the manager sends no INFO timeout_turn")
	bad := func(format string, a ...any) (*pbrain.Config, hostFlags, bool) {
		fmt.Fprintf(fs.Output(), "%s: "+format+"\n", append([]any{fs.Name()}, a...)...)
		return nil, hf, false
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, hf, true
		}
		return nil, hf, false
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	if *name != "" {
		if err := botpath.ValidName(*name); err != nil {
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
	return &pbrain.Config{Bot: *name, Options: optMap, Margin: *margin, DefaultTurn: *turn, Version: version()}, hf, true
}

// runBrain serves one Gomocup session on stdin/stdout.
func runBrain(ctx context.Context, cfg pbrain.Config, hf hostFlags, stdin io.Reader, stdout, stderr io.Writer) int {
	log, err := hf.logger(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow pbrain:", err)
		return exitUsage
	}
	loader, err := hf.loader(log)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow pbrain:", err)
		return 1
	}
	cfg.Loader, cfg.Logger = loader, log.Named("pbrain")
	if err := pbrain.New(cfg).Serve(ctx, stdin, stdout); err != nil {
		if errors.Is(err, context.Canceled) {
			log.Warn("interrupted: bots stopped")
			return 130
		}
		log.Error("session ended", "error", err)
		return 1
	}
	return 0
}
