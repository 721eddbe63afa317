package main

// Every use of the bot packages (pluginbot, referee, gtpfront, pbrain,
// botapi) is in this file: the rest of cmd/kinrow wires flags to it.

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/pbrain"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/registry"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// serveSession speaks the text protocol on stdin/stdout (kinrow serve).
func serveSession(ctx context.Context, loader *registry.Registry, hf *botflags.Host, rules engine.Rules, bot string, movetime time.Duration,
	log hclog.Logger, stdin io.Reader, stdout io.Writer) error {
	s := gtpfront.New(gtpfront.Config{
		Loader: loader, Rules: rules, DefaultBot: bot, Grace: hf.Grace,
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
