package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/ratings"
)

const mergeLong = `Joins the record files of the shards of one schedule (kinrow match --shard)
into OUT.jsonl (new or empty), by round and game. A record of another
schedule, unfinished or twice, or that no trusted referee signed (this
host's key, or one given with --trust), is refused with its file and line,
and nothing is written; --skip-invalid leaves out the records that are
not valid instead. Every record is written as it was read, with its own
signature. Missing games are reported: kinrow match --resume --out
OUT.jsonl plays them. See docs/SCALE.md and docs/MATCHES.md.`

// mergeCommand is kinrow merge: exit 0 when OUT is written (missing games
// are reported on stdout), 2 for refused input, 1 when a file cannot be
// read or written.
func mergeCommand(e env) *cobra.Command {
	var t trustFlags
	c := newCommand("merge OUT.jsonl RECORDS.jsonl...", "join the record files of a match's shards (docs/SCALE.md)", mergeLong, nil,
		func(c *cobra.Command, args []string) error {
			if len(args) < 2 {
				return bad("give the output file and at least one record file (kinrow merge --help)")
			}
			out, inputs := args[0], args[1:]
			for _, in := range inputs {
				if in == out {
					return bad("%s is both the output and an input", out)
				}
			}
			keys, err := t.trusted()
			if err != nil {
				return err
			}
			rep, err := match.Merge(e.ctx, out, inputs, match.MergeOptions{Trusted: keys, AllowUnsigned: t.allowUnsigned, SkipInvalid: t.skipInvalid})
			if err != nil {
				if errors.Is(err, match.ErrMerge) || errors.Is(err, match.ErrOutNotEmpty) {
					return usageError{err}
				}
				return err
			}
			ratings.WriteSkipped(e.stderr, c.CommandPath()+": ", rep.Skipped, maxSkippedShown)
			unsignedNote(e.stderr, c, rep.Unsigned)
			rep.WriteText(e.stdout, e.stderr, out, inputs)
			return nil
		})
	t.register(c.Flags(), true)
	c.Example = "  kinrow merge games.jsonl shard-0.jsonl shard-1.jsonl shard-2.jsonl shard-3.jsonl\n" +
		"  kinrow merge --trust cluster.pub games.jsonl shard-0.jsonl shard-1.jsonl"
	return c
}
