package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/bots/alphabeta/openings"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/progress"
)

const openingsLong = `Write N distinct openings of P plies (mirror images folded) whose value is
within S of a draw, in the format kinrow match --openings reads. Connect-X
openings are proven: exact scores from the shipped opening book or the
exact solver (a position not proven within --solve-time is skipped); other
rules are searched, not proven: alphabeta's search to --depth, S bounding
its value. The same --seed gives the same openings.`

// newOpeningsCmd is `kinrow openings`: balanced openings for `kinrow match
// --openings` (bots/alphabeta/openings, docs/MATCHES.md).
func newOpeningsCmd() *cobra.Command {
	var (
		rulesText string
		c         openings.Config
		out       string
		quiet     bool
	)
	cmd := newCommand("openings --rules RULES --plies P --max-abs-score S -n N [--seed SEED] [--out FILE]", "write N distinct balanced openings (mirror images folded) for kinrow match --openings", openingsLong, cobra.NoArgs,
		func(cmd *cobra.Command, _ []string) error {
			rules, err := engine.ParseRules(rulesText)
			if err != nil {
				return usageError{fmt.Errorf("--rules: %w", err)}
			}
			c.Rules = rules
			if err := c.Check(); err != nil {
				return usageError{err}
			}
			if !quiet {
				r := progress.New(cmd.ErrOrStderr(), "openings", false, 5*time.Second)
				c.Progress = func(found, tried int) {
					r.Update(found, c.N, func() string { return fmt.Sprintf("openings: %d of %d found, %d candidates tried", found, c.N, tried) })
				}
			}
			ops, err := openings.Generate(cmd.Context(), c)
			if err != nil && !errors.Is(err, openings.ErrTooFew) {
				return err
			}
			if err := openings.WriteFile(out, cmd.OutOrStdout(), c, ops); err != nil {
				return err
			}
			return err // nil, or too few found
		})
	f := cmd.Flags()
	f.StringVar(&rulesText, "rules", "connect4", "the game (connect4, gomoku, connectx:RxCxK, mnk:RxCxK)")
	f.IntVar(&c.Plies, "plies", 4, "moves of every opening")
	f.IntVar(&c.MaxAbsScore, "max-abs-score", 0, "the largest absolute value kept (Connect-X: exact score; elsewhere the search's value)")
	f.IntVarP(&c.N, "n", "n", 10, "openings wanted")
	f.Uint64Var(&c.Seed, "seed", 1, "seed of the random candidates: the same seed gives the same openings")
	f.DurationVar(&c.SolveTime, "solve-time", 30*time.Second, "time to prove one Connect-X position before it is skipped")
	f.IntVar(&c.Depth, "depth", 6, "search depth of the value of other rules")
	f.IntVar(&c.TTMiB, "tt", 64, "table size in MiB")
	f.IntVar(&c.Tries, "tries", 0, "candidates drawn at most (default 50 per opening wanted)")
	f.StringVar(&out, "out", "", "write to FILE instead of stdout")
	f.BoolVar(&quiet, "quiet", false, "no progress on stderr")
	return cmd
}
