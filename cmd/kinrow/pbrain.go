package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/pbrain"
)

const pbrainLong = `Speaks the brain side of the Gomocup protocol (Piskvork, Gomocup's judge) on
stdin/stdout with a kinrow bot: START, RECTSTART, RESTART, BEGIN, TURN,
BOARD ... DONE, INFO, TAKEBACK, PLAY, END, ABOUT. INFO rule 0 (freestyle:
five or more), 1 (exactly five) and 4 (renju) on boards from 5 to 128.
bin/pbrain-kinrow and bin/pbrain-kinrow-NAME are the same brain for
managers that look for pbrain-* executables. See docs/PROTOCOL.md.`

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

// brainCommand is kinrow pbrain, or the whole of pbrain-kinrow[-NAME]
// (use "pbrain-kinrow", --bot defaulting to NAME).
func brainCommand(e env, use, bot string) *cobra.Command {
	var hf botflags.Host
	var b brainFlags
	c := newCommand(use, "be a Gomocup brain on stdin/stdout", pbrainLong, cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			if b.bot != "" {
				if err := botpath.ValidName(b.bot); err != nil {
					return bad("--bot: %v", err)
				}
			}
			opts, err := botflags.Options(b.opts)
			if err != nil {
				return usageError{err}
			}
			if b.margin <= 0 || b.margin > time.Minute {
				return bad("--margin %v: want a duration from 1ms to 1m, e.g. 200ms", b.margin)
			}
			if b.turn <= 0 {
				return bad("--turn %v: want a positive duration, e.g. 5s", b.turn)
			}
			log, loader, err := startLoader(&hf, e.stderr)
			if err != nil {
				return err
			}
			defer loader.Close()
			cfg := pbrain.Config{Bot: b.bot, Options: opts, Margin: b.margin, DefaultTurn: b.turn, Version: version(), Loader: loader, Logger: log.Named("pbrain")}
			if err := pbrain.New(cfg).Serve(e.ctx, e.stdin, e.stdout); err != nil {
				if errors.Is(err, context.Canceled) {
					log.Warn("interrupted: bots stopped")
					return exitError(130)
				}
				log.Error("session ended", "error", err)
				return exitError(1)
			}
			return nil
		})
	hf.AddBots(c.Flags(), false)
	b.register(c.Flags(), bot)
	return c
}

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
