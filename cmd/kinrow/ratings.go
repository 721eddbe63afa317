package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/ratings"
)

const ratingsUsage = `Usage: kinrow ratings [--anchor NAME[=ELO]] [--prior auto|N] [--rules RULES]
         [--advantage ELO] [--draw-elo ELO] [--format text|json] [--skip-invalid]
         RECORDS.jsonl ...

Rates every bot of the game records (the files kinrow match --out writes, any
mix of matches, round robins, gauntlets and shards; "-" reads stdin): the
maximum-likelihood ratings of BayesElo's model, a Bradley-Terry model with
draws and the first player's advantage, one list per rules string, with 95%
intervals, games, score, draws and the first-move advantage in Elo. Ratings
have mean 0 unless --anchor sets one bot's. Every record is judged (its
moves replayed, its result, reason and winner checked against them, its
game counted once): a file with an invalid record is refused, naming
file:line and why, unless --skip-invalid leaves such records out and counts
them on stderr. See docs/MATCHES.md.

Examples:
  kinrow ratings games.jsonl
  kinrow ratings --anchor random=0 --format json shard-*.jsonl

Flags:
`

// maxSkippedShown bounds how many left-out records --skip-invalid names.
const maxSkippedShown = 20

// ratingsCmd is `kinrow ratings`. Exit status: 0 rated; 2 bad flags or
// anchor; 1 records that cannot be read or rated; 130 interrupted.
func ratingsCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow ratings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, ratingsUsage); fs.PrintDefaults() }
	anchor := fs.String("anchor", "", "give bot NAME the rating ELO (default 0); without it the ratings have mean 0")
	prior := fs.String("prior", "auto", "virtual games of an even result between every two bots that met: a number, or auto (none unless the maximum-likelihood estimates are infinite, e.g. a bot won or lost every game; then 2)")
	rulesText := fs.String("rules", "", "rate only the games of these rules (default: every rules string, a list each)")
	advantage := fs.String("advantage", "", "fix the first-move advantage at ELO instead of fitting it")
	drawElo := fs.String("draw-elo", "", "fix the draw parameter (BayesElo's eloDraw) at ELO instead of fitting it")
	format := fs.String("format", "text", "output: text or json")
	skipInvalid := fs.Bool("skip-invalid", false, "leave out records that are not valid (and a torn last line), each named on stderr with its file:line and why, and counted, instead of refusing the file")
	// Flags may come before, between or after the files.
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return exitUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		files = append(files, args[0])
		args = args[1:]
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinrow ratings: "+format+"\n", a...)
		return exitUsage
	}
	if len(files) == 0 {
		return bad("no record files: give one or more RECORDS.jsonl (kinrow ratings -h)")
	}
	if *format != "text" && *format != "json" {
		return bad("--format %q: accepted are text and json", *format)
	}
	var opts ratings.Options
	if *anchor != "" {
		name, elo, err := ratings.ParseAnchor(*anchor)
		if err != nil {
			return bad("--anchor: %v", err)
		}
		opts.Anchor, opts.AnchorElo = name, elo
	}
	if *prior == "auto" {
		opts.FallbackPrior = ratings.DefaultPrior
	} else {
		p, err := strconv.ParseFloat(*prior, 64)
		if err != nil || p < 0 || math.IsInf(p, 0) || math.IsNaN(p) {
			return bad("--prior %q: want auto or a number of virtual games ≥ 0", *prior)
		}
		opts.Prior = p
	}
	for _, f := range []struct {
		name, text string
		dst        **float64
	}{{"--advantage", *advantage, &opts.Advantage}, {"--draw-elo", *drawElo, &opts.DrawElo}} {
		if f.text == "" {
			continue
		}
		v, err := strconv.ParseFloat(f.text, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || (f.name == "--draw-elo" && v < 0) {
			return bad("%s %q: want a finite number of Elo (≥ 0 for --draw-elo)", f.name, f.text)
		}
		*f.dst = &v
	}
	opts.Rules = *rulesText

	// The work runs aside so that Ctrl-C ends the command even while it
	// waits on stdin.
	type result struct {
		rep *ratings.Report
		bad []error // the records --skip-invalid left out
		err error
	}
	done := make(chan result, 1)
	go func() {
		var recs []*record.Record
		var skipped []error
		for _, f := range files {
			var rs []*record.Record
			var bad []error
			var err error
			switch {
			case f == "-" && *skipInvalid:
				rs, bad, err = ratings.ReadSkipping(stdin, "stdin")
			case f == "-":
				rs, err = ratings.Read(stdin, "stdin")
			case *skipInvalid:
				rs, bad, err = ratings.ReadFileSkipping(f)
			default:
				rs, err = ratings.ReadFile(f)
			}
			if err != nil {
				done <- result{err: fmt.Errorf("ratings: %w", err)}
				return
			}
			recs = append(recs, rs...)
			skipped = append(skipped, bad...)
		}
		rep, err := ratings.Fit(recs, opts)
		done <- result{rep, skipped, err}
	}()
	var res result
	select {
	case <-ctx.Done():
		fmt.Fprintln(stderr, "kinrow ratings: interrupted")
		return 130
	case res = <-done:
	}
	if n := len(res.bad); n > 0 {
		for i, err := range res.bad {
			if i == maxSkippedShown {
				fmt.Fprintf(stderr, "kinrow ratings: skipped: ... and %d more\n", n-i)
				break
			}
			fmt.Fprintf(stderr, "kinrow ratings: skipped: %v\n", err)
		}
		word := "records"
		if n == 1 {
			word = "record"
		}
		fmt.Fprintf(stderr, "kinrow ratings: left out %d invalid %s (--skip-invalid)\n", n, word)
	}
	if res.err != nil {
		fmt.Fprintln(stderr, "kinrow", res.err)
		if errors.Is(res.err, ratings.ErrUnknownAnchor) || errors.Is(res.err, ratings.ErrBadOption) {
			return exitUsage
		}
		return 1
	}
	var err error
	if *format == "json" {
		err = res.rep.WriteJSON(stdout)
	} else {
		err = res.rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "kinrow ratings:", err)
		return 1
	}
	return 0
}
