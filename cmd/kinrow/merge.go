package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/kinrow/kinrow/host/match"
)

const mergeUsage = `Usage: kinrow merge OUT.jsonl RECORDS.jsonl [RECORDS.jsonl ...]

Joins the record files of the shards of one schedule (kinrow match --shard
I/N --out ...) into OUT.jsonl, ordered by round and game. Every record
must carry the same schedule identity (the hash of the match's settings
that kinrow match writes into each record), be a finished game inside the
schedule and appear once: any other record is refused with its file and
line, and nothing is written. Missing games are reported; kinrow match
--resume --out OUT.jsonl with the schedule's settings plays only them.
OUT.jsonl must be new or empty: records are never overwritten.
See docs/SCALE.md.

Example:
  kinrow merge games.jsonl shard-0.jsonl shard-1.jsonl shard-2.jsonl shard-3.jsonl
`

// mergeCmd is kinrow merge: exit 0 when OUT is written (missing games
// are reported on stdout), 2 for refused input, 1 when a file cannot be
// read or written.
func mergeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, mergeUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() < 2 {
		fmt.Fprint(stderr, "kinrow merge: give the output file and at least one record file\n\n"+mergeUsage)
		return exitUsage
	}
	out, inputs := fs.Arg(0), fs.Args()[1:]
	for _, in := range inputs {
		if in == out {
			fmt.Fprintf(stderr, "kinrow merge: %s is both the output and an input\n", out)
			return exitUsage
		}
	}
	rep, err := match.Merge(ctx, out, inputs)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow merge:", err)
		if errors.Is(err, match.ErrMerge) || errors.Is(err, match.ErrOutNotEmpty) {
			return exitUsage
		}
		return 1
	}
	for _, torn := range rep.Torn {
		fmt.Fprintf(stderr, "kinrow merge: %s ends with a torn line (a run stopped while writing): left out, its game is missing\n", torn)
	}
	total := rep.Schedule.Rounds * rep.Schedule.Games
	counts := make([]string, len(inputs))
	for i, in := range inputs {
		counts[i] = fmt.Sprintf("%s %d", in, rep.PerFile[i])
	}
	fmt.Fprintf(stdout, "%s: %d of %d games of schedule %s (%s)\n", out, rep.Games, total, rep.Schedule, strings.Join(counts, ", "))
	if rep.Missing == 0 {
		fmt.Fprintln(stdout, "missing: 0 games")
		return 0
	}
	fmt.Fprintf(stdout, "missing: %d games: %s\n", rep.Missing, rep.MissingText())
	fmt.Fprintf(stdout, "kinrow match --resume --out %s with the settings of the shards plays only those\n", out)
	return 0
}
