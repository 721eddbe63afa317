package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/host/ratings"
	"github.com/kinrow/kinrow/host/termsafe"
)

const ratingsLong = `Rates every bot of match records ("-" reads stdin) by BayesElo's model (draws
and the first move's advantage), a list per rules string with 95%
intervals; mean 0 unless --anchor. Every record is judged and verified
(signed by this host's key or one given with --trust, each game id once
across the files): a file with an invalid one is refused, naming
file:line, unless --skip-invalid leaves it out. See docs/MATCHES.md.`

// maxSkippedShown bounds how many left-out records --skip-invalid names.
const maxSkippedShown = 20

// ratingsFlags are kinrow ratings' flags.
type ratingsFlags struct {
	anchor, prior, format string
	advantage, drawElo    float64
	skipInvalid           bool
	trust                 trustFlags
	opts                  ratings.Options
}

// ratingsCommand is kinrow ratings. Exit status: 0 rated; 2 bad flags or
// anchor; 1 records that cannot be read or rated; 130 interrupted. The
// options are checked by ratings.Fit.
func ratingsCommand(e env) *cobra.Command {
	var f ratingsFlags
	c := newCommand("ratings RECORDS.jsonl...", "rate every bot of match records", ratingsLong, cobra.ArbitraryArgs,
		func(c *cobra.Command, files []string) error { return f.run(e, c, files) })
	c.Example = "  kinrow ratings games.jsonl\n  kinrow ratings --anchor random=0 --format json shard-*.jsonl"
	fs := c.Flags()
	fs.StringVar(&f.anchor, "anchor", "", "give bot NAME the rating ELO (NAME[=ELO], default 0); without it the ratings have mean 0")
	fs.StringVar(&f.prior, "prior", "auto", "virtual games of an even result between every two bots that met: a number, or auto (none unless the maximum-likelihood estimates are infinite, e.g. a bot won or lost every game; then 2)")
	fs.StringVar(&f.opts.Rules, "rules", "", "rate only the games of these rules (default: every rules string, a list each)")
	fs.Float64Var(&f.advantage, "advantage", 0, "fix the first-move advantage at ELO instead of fitting it")
	fs.Float64Var(&f.drawElo, "draw-elo", 0, "fix the draw parameter (BayesElo's eloDraw) at ELO instead of fitting it")
	fs.StringVar(&f.format, "format", "text", "output: text or json")
	fs.BoolVar(&f.skipInvalid, "skip-invalid", false, "leave out records that are not valid (unsigned, badly signed, by an untrusted key, a game id seen before, a line over the bound, a result its moves do not give) and a torn last line, each named on stderr with its file:line and why, and counted, instead of refusing the file")
	f.trust.register(fs, false)
	return c
}

func (f *ratingsFlags) run(e env, c *cobra.Command, files []string) error {
	switch {
	case len(files) == 0:
		return bad("no record files: give one or more RECORDS.jsonl (kinrow ratings --help)")
	case f.format != "text" && f.format != "json":
		return bad("--format %q: accepted are text and json", f.format)
	}
	if f.anchor != "" {
		name, elo, err := ratings.ParseAnchor(f.anchor)
		if err != nil {
			return bad("--anchor: %v", err)
		}
		f.opts.Anchor, f.opts.AnchorElo = name, elo
	}
	if f.prior == "auto" {
		f.opts.FallbackPrior = ratings.DefaultPrior
	} else if p, err := strconv.ParseFloat(f.prior, 64); err == nil {
		f.opts.Prior = p
	} else {
		return bad("--prior %q: want auto or a number of virtual games ≥ 0", f.prior)
	}
	if c.Flags().Changed("advantage") {
		f.opts.Advantage = &f.advantage
	}
	if c.Flags().Changed("draw-elo") {
		f.opts.DrawElo = &f.drawElo
	}
	v, err := f.trust.verifier()
	if err != nil {
		return err
	}
	rep, skipped, err := ratings.RateFiles(e.ctx, files, e.stdin, v, f.skipInvalid, f.opts)
	if errors.Is(err, ratings.ErrInterrupted) {
		return e.fail(c, 130, err)
	}
	ratings.WriteSkipped(e.stderr, c.CommandPath()+": ", skipped, maxSkippedShown)
	if err == nil {
		unsignedNote(e.stderr, c, v.Unsigned)
	}
	if err != nil { // "ratings: ..."
		fmt.Fprintln(e.stderr, "kinrow", termsafe.Printable(err.Error()))
		if errors.Is(err, ratings.ErrUnknownAnchor) || errors.Is(err, ratings.ErrBadOption) {
			return exitError(exitUsage)
		}
		return exitError(1)
	}
	write := rep.WriteText
	if f.format == "json" {
		write = rep.WriteJSON
	}
	return write(e.stdout)
}
