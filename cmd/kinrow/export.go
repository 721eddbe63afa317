package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/recordfmt"
	"github.com/kinrow/kinrow/host/termsafe"
)

const exportLong = `Writes the games of a records file (as kinrow match --out writes it) in a
format other tools open (docs/VIEWER.md):
  psq   Piskvork's game file, m,n,k boards, 1-based Gomocup X,Y (one game)
  sgf   SGF, GM[4], players, result, per-move times (m,n,k games, all or one)
  text  the move list kinrow reads back: "4453" for Connect-4 as solvers
        read it; a "#" line per game, so the output is an openings file
  svg   the position after ply P (default: the end) of one game
--game N picks the N-th record of the file (from 1).`

// exportFlags are kinrow export's flags.
type exportFlags struct {
	format, out string
	game, ply   int
}

// exportCommand is kinrow export.
func exportCommand(e env) *cobra.Command {
	var f exportFlags
	c := newCommand("export RECORDS.jsonl", "write records as PSQ, SGF, move lists or SVG (docs/VIEWER.md)", exportLong, cobra.ArbitraryArgs,
		func(c *cobra.Command, args []string) error { return f.run(c, e, args) })
	fs := c.Flags()
	fs.StringVar(&f.format, "format", "text", "psq, sgf, text or svg")
	fs.IntVar(&f.game, "game", 0, "the game: the N-th record of the file, from 1 (default: every game, or the only one)")
	fs.IntVar(&f.ply, "ply", -1, "svg: the position after this many plies (default: the end)")
	fs.StringVar(&f.out, "out", "", "write to this file instead of stdout")
	return c
}

func (x *exportFlags) run(c *cobra.Command, e env, args []string) error {
	if len(args) != 1 {
		return bad("want one records file (kinrow export --help)")
	}
	path := args[0]
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	recs, warns, err := recordfmt.LoadRecords(f, path)
	f.Close()
	if err == nil {
		var more []string
		var data []byte
		data, more, err = recordfmt.Export(recs, path, x.format, x.game, x.ply)
		warns = append(warns, more...)
		if err == nil {
			err = writeOutput(x.out, data, e.stdout)
		}
	}
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "%s: warning: %s\n", c.CommandPath(), termsafe.Printable(w))
	}
	return refused(err)
}

// refused makes err a usageError (exit 2) when it refuses a choice (a
// flag that does not fit the file) or a line.
func refused(err error) error {
	var ce *recordfmt.ChoiceError
	var le *recordfmt.LineError
	if errors.As(err, &ce) || errors.As(err, &le) {
		return usageError{err}
	}
	return err
}

// writeOutput writes data to path, or to stdout when path is "".
func writeOutput(path string, data []byte, stdout io.Writer) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

const importLong = `Reads PSQ (Piskvork) and SGF (GM[4]) games as an openings file for kinrow
match --openings; a finished game loses its last move. --rules gives K
(default: the SGF's RU, or freestyle five). A line or move it cannot read
is refused naming the file and the line (exit 2). See docs/VIEWER.md.`

// importFlags are kinrow import's flags.
type importFlags struct {
	rules, out string
	plies      int
}

// importCommand is kinrow import.
func importCommand(e env) *cobra.Command {
	var f importFlags
	c := newCommand("import GAME.psq|GAME.sgf...", "read PSQ and SGF games as openings", importLong, cobra.ArbitraryArgs,
		func(c *cobra.Command, args []string) error { return f.run(c, e, args) })
	fs := c.Flags()
	fs.StringVar(&f.rules, "rules", "", "the rules the games are played under (gives K; the board must match)")
	fs.IntVar(&f.plies, "plies", 0, "keep the first N plies of each game (0: all that leave the game open)")
	fs.StringVar(&f.out, "out", "", "write to this file instead of stdout")
	return c
}

func (f *importFlags) run(c *cobra.Command, e env, args []string) error {
	if len(args) == 0 {
		return bad("want one or more PSQ or SGF files (kinrow import --help)")
	}
	if f.plies < 0 {
		return bad("--plies %d: must be 0 (all) or more", f.plies)
	}
	var want *engine.Rules
	if f.rules != "" {
		r, err := engine.ParseRules(f.rules)
		if err != nil {
			return bad("--rules: %v", err)
		}
		want = &r
	}
	data, rules, notes, err := recordfmt.ImportOpenings(args, e.stdin, want, f.plies)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "%s: %s\n", c.CommandPath(), n)
	}
	if err == nil {
		fmt.Fprintf(e.stderr, "%s: openings for --rules %s\n", c.CommandPath(), rules)
		err = writeOutput(f.out, data, e.stdout)
	}
	return refused(err)
}
