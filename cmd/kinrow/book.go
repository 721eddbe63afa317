package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/engine"
)

// newBookCmd is `kinrow book`: building and checking opening books
// (bots/alphabeta/book, docs/BOTS.md).
func newBookCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:           "book",
		Short:         "build Connect-X opening books of exact scores for alphabeta",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.AddCommand(newBookBuildCmd())
	return cmd
}

func newBookBuildCmd() *cobra.Command {
	var (
		rulesText string
		plies     int
		out       string
		jobs      int
		tt        int
		quiet     bool
	)
	cmd := &cobra.Command{
		Use:   "build --rules RULES --plies N --out FILE",
		Short: "solve every position up to N plies and write the book",
		Long: `Solve every position of at most N stones (mirror images folded) with the
exact solver and write the book to FILE (its format: bots/alphabeta/book).
Every proven score is kept in FILE.journal as it comes: run the same command
again after a stop and it resumes. The alphabeta bot reads a book with
--bot-opt alphabeta:book=FILE.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rules, err := engine.ParseRules(rulesText)
			if err != nil {
				return usageError{fmt.Errorf("--rules: %w", err)}
			}
			if !rules.Gravity() || rules.Line != engine.Freestyle {
				return usageError{fmt.Errorf("--rules %s: books are for freestyle Connect-X (connect4, connectx:RxCxK)", rules)}
			}
			g := book.Geometry{Rows: rules.Rows, Cols: rules.Cols, K: rules.K}
			if err := g.Check(); err != nil {
				return usageError{fmt.Errorf("--rules %s: %w", rules, err)}
			}
			if plies < 0 || plies > rules.Cells() {
				return usageError{fmt.Errorf("--plies %d: want 0..%d", plies, rules.Cells())}
			}
			if out == "" {
				return usageError{errors.New("--out FILE is required")}
			}
			stderr := cmd.ErrOrStderr()
			var bar *progressbar.ProgressBar
			if f, ok := stderr.(*os.File); ok && !quiet && term.IsTerminal(int(f.Fd())) {
				bar = progressbar.NewOptions(1, progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
					progressbar.OptionSetDescription("positions"), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
			}
			start := time.Now()
			last := time.Time{}
			b, err := book.Build(cmd.Context(), book.Options{
				Geometry: g, Plies: plies, Jobs: jobs, TTMiB: tt, Journal: out + ".journal",
				Progress: func(done, total int) {
					switch {
					case bar != nil:
						bar.ChangeMax(total)
						_ = bar.Set(done)
					case !quiet && (done == total || time.Since(last) >= 10*time.Second):
						last = time.Now()
						fmt.Fprintf(stderr, "book: %d/%d positions of %d plies solved (%s)\n", done, total, plies, time.Since(start).Round(time.Second))
					}
				},
			})
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			if err := b.WriteFile(out); err != nil {
				return err
			}
			if err := os.Remove(out + ".journal"); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("book: %w", err)
			}
			st, err := os.Stat(out)
			if err != nil {
				return fmt.Errorf("book: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s, %d positions up to %d plies, %d bytes, built in %s\n",
				out, rules, b.Len(), plies, st.Size(), time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&rulesText, "rules", "connect4", "the game: connect4 or connectx:RxCxK")
	f.IntVar(&plies, "plies", 4, "every position of at most this many stones goes in the book")
	f.StringVar(&out, "out", "", "the book file to write (required); FILE.journal keeps the progress")
	f.IntVar(&jobs, "jobs", 0, "positions solved at once (default: one per CPU)")
	f.IntVar(&tt, "tt", 0, "each solver's table size in MiB (default 64)")
	f.BoolVar(&quiet, "quiet", false, "no progress on stderr")
	return cmd
}

// usageError marks bad command-line input (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// kinrowErrors makes c and its subcommands report errors as every kinrow
// subcommand does (env.fail): "kinrow CMD: why" on stderr, exit status 2
// for a usageError, 1 for any other.
func kinrowErrors(e env, c *cobra.Command) *cobra.Command {
	if run := c.RunE; run != nil {
		c.RunE = func(c *cobra.Command, args []string) error {
			err := run(c, args)
			var u usageError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &u):
				return e.fail(c, exitUsage, u.err)
			}
			return e.fail(c, 1, err)
		}
	}
	for _, sub := range c.Commands() {
		kinrowErrors(e, sub)
	}
	return c
}
