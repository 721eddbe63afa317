package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/progress"
)

// newBookCmd is `kinrow book`: building and checking opening books
// (bots/alphabeta/book, docs/BOTS.md).
func newBookCmd() *cobra.Command {
	cmd := newCommand("book", "build Connect-X opening books of exact scores for alphabeta", "", nil, nil)
	cmd.AddCommand(newBookBuildCmd())
	return cmd
}

const bookBuildLong = `Solve every position of at most N stones (mirror images folded) with the
exact solver and write the book to FILE (its format: bots/alphabeta/book).
With --strategy x, o or both, write a strategy book instead: the side's
best move (a win when there is one, else a draw, else the slowest loss:
--slowest-loss=false takes any move that does not lose at once) at
every position of at most N stones (--o-plies M for the second player) it
reaches playing the book's moves against every reply of the other side.
Every proven score is kept in FILE.journal as it comes: run the same command
again after a stop and it resumes. The alphabeta bot reads a book with
--bot-opt alphabeta:book=FILE.`

func newBookBuildCmd() *cobra.Command {
	var (
		rulesText string
		plies     int
		out       string
		jobs      int
		tt        int
		quiet     bool
		strategy  string
		oPlies    int
		known     string
		slowest   bool
	)
	cmd := newCommand("build --rules RULES --plies N --out FILE", "solve every position up to N plies and write the book", bookBuildLong, cobra.NoArgs,
		func(cmd *cobra.Command, _ []string) error {
			rules, err := engine.ParseRules(rulesText)
			if err != nil {
				return usageError{fmt.Errorf("--rules: %w", err)}
			}
			g, err := book.GeometryOf(rules, plies)
			if err != nil {
				return usageError{err}
			}
			if out == "" {
				return usageError{errors.New("--out FILE is required")}
			}
			bar := progress.New(cmd.ErrOrStderr(), "positions", !quiet && onTerminal(cmd.ErrOrStderr()), 10*time.Second)
			start := time.Now()
			var built book.Built
			if strategy == "" {
				built, err = book.BuildFile(cmd.Context(), book.Options{Geometry: g, Plies: plies, Jobs: jobs, TTMiB: tt,
					Progress: func(done, total int) {
						if !quiet {
							bar.Update(done, total, func() string {
								return fmt.Sprintf("book: %d/%d positions of %d plies solved (%s)", done, total, plies, time.Since(start).Round(time.Second))
							})
						}
					}}, out)
			} else {
				so := book.StrategyOptions{Geometry: g, XPlies: -1, OPlies: -1, Jobs: jobs, TTMiB: tt, SlowestLoss: slowest,
					Progress: func(ply, done, total int) {
						if !quiet {
							bar.Update(done, total, func() string {
								return fmt.Sprintf("book: %d/%d positions decided, ply %d (%s)", done, total, ply, time.Since(start).Round(time.Second))
							})
						}
					}}
				if known != "" {
					if so.Known, err = book.ReadFile(known); err != nil {
						return usageError{fmt.Errorf("--known: %w", err)}
					}
				}
				if !cmd.Flags().Changed("o-plies") {
					oPlies = plies
				}
				switch strategy {
				case "x":
					so.XPlies = plies
				case "o":
					so.OPlies = oPlies
				case "both":
					so.XPlies, so.OPlies = plies, oPlies
				default:
					return usageError{fmt.Errorf("--strategy %q: want x, o or both", strategy)}
				}
				built, err = book.BuildStrategyFile(cmd.Context(), so, out)
			}
			bar.Finish()
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), built.Summary(rules))
			return nil
		})
	f := cmd.Flags()
	f.StringVar(&rulesText, "rules", "connect4", "the game: connect4 or connectx:RxCxK")
	f.IntVar(&plies, "plies", 4, "every position of at most this many stones goes in the book")
	f.StringVar(&out, "out", "", "the book file to write (required); FILE.journal keeps the progress")
	f.IntVar(&jobs, "jobs", 0, "positions solved at once (default: one per CPU)")
	f.IntVar(&tt, "tt", 0, "each solver's table size in MiB (default 64)")
	f.BoolVar(&quiet, "quiet", false, "no progress on stderr")
	f.StringVar(&strategy, "strategy", "", "a strategy book of x (the first player), o (the second) or both, not every position")
	f.IntVar(&oPlies, "o-plies", 0, "with --strategy: the second player's plies (default --plies)")
	f.StringVar(&known, "known", "", "with --strategy: a book of the same board whose moves and exact scores decide what it holds without solving")
	f.BoolVar(&slowest, "slowest-loss", true, "with --strategy: a lost position's move is the slowest loss (every move solved exactly); false: any move that does not lose at once")
	return cmd
}
