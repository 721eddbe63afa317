package main

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/solve"
)

const solveLong = `Reads positions from stdin, one per line: a move list from the empty board
(digits for Connect-X up to 9 columns, as in Connect-4 solvers' test files,
otherwise moves separated by spaces or commas; the move list ends at the
first field that is not a move, and the rest of the line is ignored; an
empty line is the empty board). Prints, as soon as each is known, in input
order:

  MOVES SCORE                  the exact score for the side to move
  MOVES SCORE S1 ... SC        with --analyze: the score of each column ('-': full)
  MOVES 1|0|-1                 with --weak: win, draw or loss only
  MOVES ? REASON               a bad line (one longer than 1 MiB too, named
                               by its first 32 bytes), or a position not
                               solved in --timeout

Scores: positive, the side to move wins (the earlier the higher: on R×C,
floor((R·C+1)/2) + 1 − its stones at the win, 22 − stones on 6×7); 0, draw;
negative, it loses. Positions stream to one bot process over one
connection, or with --jobs N to N processes, each taking the next position
as it frees up; answers still come in input order.`

// solveCommand is kinrow solve: flags to host/solve.
func solveCommand(e env) *cobra.Command {
	var hf botflags.Host
	var cfg solve.Config
	var bot, rulesText string
	var opts []string
	var jobs, threads int
	var stats bool
	c := newCommand("solve", "solve positions read from stdin", solveLong, cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			var err error
			if cfg.Rules, err = engine.ParseRules(rulesText); err != nil {
				return bad("--rules: %v", err)
			}
			if cfg.Options, err = botflags.Options(opts); err != nil {
				return usageError{err}
			}
			if jobs < 1 || jobs > 64 {
				return bad("--jobs %d: want 1 to 64 bot processes", jobs)
			}
			if threads != 0 {
				if threads < 1 || threads > 64 {
					return bad("--threads %d: want 1 to 64 threads per position", threads)
				}
				cfg.Options["threads"] = strconv.Itoa(threads)
			}
			_, loader, err := startLoader(&hf, e.stderr)
			if err != nil {
				return err
			}
			defer loader.Close()
			ctx, cancel := context.WithCancel(e.ctx) // ends the streams on return
			defer cancel()
			streams, closeBots, err := solve.StartStreams(ctx, loader, bot, jobs, cfg.Options)
			if err != nil {
				return usageError{err}
			}
			defer closeBots()
			st, err := solve.Run(ctx, streams, cfg, e.stdin, e.stdout)
			if err != nil {
				return err
			}
			if stats {
				st.Write(e.stderr, c.CommandPath())
			}
			return nil
		})
	fs := c.Flags()
	hf.AddBots(fs, true)
	fs.StringVar(&bot, "bot", "alphabeta", "the bot that solves")
	fs.StringVar(&rulesText, "rules", "connect4", "the game: "+engine.RulesSyntax)
	fs.BoolVar(&cfg.Analyze, "analyze", false, "score every move of each position")
	fs.BoolVar(&cfg.Weak, "weak", false, "only win (1), draw (0) or loss (-1)")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "give up on a position after this long (0: no limit)")
	fs.BoolVar(&stats, "stats", false, "print the run's figures on stderr at the end: positions/s, mean time and nodes per position")
	fs.IntVar(&threads, "threads", 0, "threads searching each position together, sharing one table (the bot's threads option; 0: the bot's default)")
	fs.IntVar(&jobs, "jobs", 1, "bot processes solving at once, each with its own table (at most one per core pays)")
	fs.StringArrayVar(&opts, "bot-opt", nil, "an option for the bot, `KEY=VALUE` (repeatable)")
	return c
}
