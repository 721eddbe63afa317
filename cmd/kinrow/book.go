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
			built, err := book.BuildFile(cmd.Context(), book.Options{Geometry: g, Plies: plies, Jobs: jobs, TTMiB: tt,
				Progress: func(done, total int) {
					if !quiet {
						bar.Update(done, total, func() string {
							return fmt.Sprintf("book: %d/%d positions of %d plies solved (%s)", done, total, plies, time.Since(start).Round(time.Second))
						})
					}
				}}, out)
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
	return cmd
}
