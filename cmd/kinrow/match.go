package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/ratings"
	"github.com/kinrow/kinrow/host/registry"
)

const matchLong = `Plays games between bots under the host's referee rules: two bots a match,
more a round robin (or with --gauntlet the first against each other).
Every opening is played twice, colours swapped. --out is never
overwritten (--resume continues it). Ctrl-C abandons the games being
played and prints the summary of the finished ones. --shard plays one
slice of the schedule; kinrow merge joins the slices' --out files.
See docs/MATCHES.md and docs/SCALE.md.`

const matchExample = `  kinrow match --rules connect4 --bot alphabeta --bot random --games 20 --movetime 100ms
  kinrow match --rules gomoku --bot mics --bot pndb --games 100 --concurrency 2 \
      --tc 10s+0.1s --random-plies 4 --out games.jsonl --sprt elo0=0,elo1=20
  kinrow match --bot alphabeta --bot alphabeta --bot-opt alphabeta#2:tt=16 --sprt elo0=0,elo1=10`

// matchFlags are kinrow match's own flags.
type matchFlags struct {
	s                           match.Settings
	format, outFormat, viewAddr string
	gomocupTolerance            time.Duration
	trust                       trustFlags
}

func (m *matchFlags) register(fs *pflag.FlagSet) {
	s := &m.s
	fs.StringVar(&s.Rules, "rules", "connect4", "the game: "+engine.RulesSyntax)
	fs.StringArrayVar(&s.Bots, "bot", nil, "a bot to play, by `NAME` (repeat: two or more)")
	fs.StringArrayVar(&s.BotOpts, "bot-opt", nil, "an option for every copy of bot NAME, or for its N-th copy only (`NAME[#N]:KEY=VALUE`, repeatable)")
	fs.IntVar(&s.Games, "games", 2, "games per pairing (pairs with colours swapped)")
	fs.IntVar(&s.Concurrency, "concurrency", 1, "games played at once, each with its own bot processes")
	fs.DurationVar(&s.MoveTime, "movetime", 0, "time per move (default 100ms unless --tc)")
	fs.StringVar(&s.TC, "tc", "", "game clock `MAIN+INC`, e.g. 10s+0.1s")
	fs.StringVar(&s.Openings, "openings", "", "file of openings, one move list per line")
	fs.IntVar(&s.RandomPlies, "random-plies", 0, "open every pair with P random plies")
	fs.StringVar(&s.Out, "out", "", "write one JSON record per finished game to this file (new or empty, or with --resume)")
	fs.BoolVar(&s.Resume, "resume", false, "play only the games --out does not hold yet, appending to it")
	fs.StringVar(&s.SPRT, "sprt", "", "stop early by SPRT: elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized|logistic")
	fs.DurationVar(&m.gomocupTolerance, "gomocup-tolerance", time.Second, "time Gomocup engines may take beyond timeout_turn before they forfeit (GomocupJudge's default)")
	fs.BoolVar(&s.Gauntlet, "gauntlet", false, "the first bot plays each of the others")
	fs.Uint64Var(&s.Seed, "seed", 1, "seed of the schedule (random openings)")
	fs.IntVar(&s.MaxPlies, "max-plies", 0, "adjudicate a draw after N plies (0: no limit)")
	fs.StringVar(&m.format, "format", "text", "summary format: text or json")
	fs.StringVar(&m.outFormat, "out-format", "", "also write each finished game as text (FILE.txt, move strings), sgf (FILE.sgf) or psq (FILE.psq/, a file a game), comma-separated; FILE is --out without its extension")
	fs.StringVar(&m.viewAddr, "view", "", "serve a live web page of the match at ADDR, e.g. 127.0.0.1:8080 (loopback unless another address is given; see docs/VIEWER.md)")
	m.trust.register(fs, true)
	fs.StringVar(&s.Shard, "shard", "", "play the I-th of N slices of the schedule (I/N, I from 0), or auto: from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/KINROW_SHARD_COUNT")
}

// matchCommand is kinrow match: flags to host/match.
func matchCommand(e env) *cobra.Command {
	var hf botflags.Host
	var m matchFlags
	c := newCommand("match", "play automated matches and tournaments (docs/MATCHES.md)", matchLong, cobra.NoArgs,
		func(c *cobra.Command, _ []string) error { return m.run(e, c, &hf) })
	c.Example = matchExample
	hf.AddBots(c.Flags(), true)
	m.register(c.Flags())
	return c
}

func (m *matchFlags) run(e env, c *cobra.Command, hf *botflags.Host) error {
	progress := match.NewProgress(e.stderr, onTerminal(e.stderr))
	log, err := hf.Logger(progress.Log())
	if err != nil {
		return usageError{err}
	}
	if m.format != "text" && m.format != "json" {
		return bad("--format %q: accepted are text and json", m.format)
	}
	if m.gomocupTolerance < 0 {
		return bad("--gomocup-tolerance %v: must be 0 or more", m.gomocupTolerance)
	}
	cfg, err := m.s.Config()
	if err != nil {
		return usageError{err}
	}
	if err := m.keys(&cfg); err != nil {
		return err
	}
	// --gomocup-tolerance reaches the engines only when given, so that a
	// manifest's own tolerance key wins over the default otherwise.
	if c.Flags().Changed("gomocup-tolerance") {
		hf.GomocupTolerance = &m.gomocupTolerance
	}
	if cfg.Out != "" {
		hf.Deny = append(hf.Deny, cfg.Out) // no engine's box sees the records, nor the directory holding them
	}
	loader, err := hf.Loader(log)
	if err != nil {
		return err
	}
	defer loader.Close()
	if err := checkMatchBots(e.ctx, loader, &cfg); err != nil {
		return usageError{err}
	}
	cfg.Grace, cfg.Loader, cfg.Logger = hf.Grace, loader, log
	if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	if !cfg.Shard.Whole() {
		log.Info("playing one shard of the schedule", "shard", cfg.Shard.String(), "schedule", cfg.ScheduleID().String())
	}
	progress.Hook(&cfg)
	if m.outFormat != "" {
		exp, err := match.NewGameExport(m.outFormat, cfg.Out, cfg.Rules, cfg.Resume)
		if err != nil {
			return usageError{err}
		}
		exp.Hook(&cfg)
	}
	match.LogGames(&cfg, loader.Live)
	if m.viewAddr != "" {
		if err := watchMatch(e.ctx, m.viewAddr, &cfg, log, e.stderr); err != nil {
			return usageError{err}
		}
	}
	// match.Run checks --out before any game starts: its errors without a
	// summary are bad input (exit 2).
	sum, err := match.Run(e.ctx, cfg)
	progress.Finish()
	if sum != nil {
		ratings.WriteSkipped(e.stderr, c.CommandPath()+": --resume ", sum.Skipped, maxSkippedShown)
		unsignedNote(e.stderr, c, sum.Unsigned)
	}
	switch {
	case err != nil && sum == nil:
		return usageError{err}
	case err != nil:
		return err
	}
	return m.summary(e, c, sum, log)
}

// keys gives cfg the referee's key that signs --out's records and the
// verifier of the records --resume reads.
func (m *matchFlags) keys(cfg *match.Config) error {
	if cfg.Out == "" {
		return nil
	}
	k, err := loadKey()
	if err != nil {
		return err
	}
	cfg.Key = k.Private
	if cfg.Resume {
		if cfg.Trusted, err = m.trust.trusted(); err != nil {
			return err
		}
		cfg.AllowUnsigned, cfg.SkipInvalid = m.trust.allowUnsigned, m.trust.skipInvalid
	}
	return nil
}

// summary prints the summary; an interrupted run exits 130.
func (m *matchFlags) summary(e env, c *cobra.Command, sum *match.Summary, log hclog.Logger) error {
	if m.format == "json" {
		if err := sum.WriteJSON(e.stdout, log); err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", c.CommandPath(), err)
		}
	} else if err := sum.WriteText(e.stdout); err != nil {
		log.Warn("no standings", "error", err)
	}
	if sum.Interrupted {
		return e.fail(c, 130, fmt.Errorf("interrupted; finished games are kept"))
	}
	return nil
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
