package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/recordfmt"
)

const exportUsage = `Usage: kinrow export --format psq|sgf|text|svg [--game N] [--ply P] [--out FILE] RECORDS.jsonl

Writes the games of a records file (as kinrow match --out writes it) in a
format other tools open (docs/VIEWER.md):
  psq   Piskvork's game file, m,n,k boards, 1-based Gomocup X,Y (one game)
  sgf   SGF, GM[4], players, result, per-move times (m,n,k games, all or one)
  text  the move list kinrow reads back: "4453" for Connect-4 as solvers
        read it; a "#" line per game, so the output is an openings file
  svg   the position after ply P (default: the end) of one game
--game N picks the N-th record of the file (from 1).

Flags:
`

func exportCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exportUsage); fs.PrintDefaults() }
	format := fs.String("format", "text", "psq, sgf, text or svg")
	game := fs.Int("game", 0, "the game: the N-th record of the file, from 1 (default: every game, or the only one)")
	ply := fs.Int("ply", -1, "svg: the position after this many plies (default: the end)")
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinrow export: "+format+"\n", a...)
		return exitUsage
	}
	switch *format {
	case "psq", "sgf", "text", "svg":
	default:
		return bad("--format %q: accepted are psq, sgf, text and svg", *format)
	}
	if fs.NArg() != 1 {
		return bad("want one records file (kinrow export -h)")
	}
	if *game < 0 {
		return bad("--game %d: games are numbered from 1", *game)
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow export:", err)
		return 1
	}
	recs, warns, err := recordfmt.LoadRecords(f, path)
	f.Close()
	for _, w := range warns {
		fmt.Fprintln(stderr, "kinrow export: warning:", w)
	}
	if err != nil {
		fmt.Fprintln(stderr, "kinrow export:", err)
		return 1
	}
	if *game > len(recs) {
		return bad("--game %d: %s holds %d games (1 to %d)", *game, path, len(recs), len(recs))
	}
	var games []*recordfmt.Game
	var labels []string
	for i, rec := range recs {
		if *game != 0 && i+1 != *game {
			continue
		}
		g, err := recordfmt.FromRecord(rec)
		if err != nil {
			fmt.Fprintf(stderr, "kinrow export: %s game %d: %v\n", path, i+1, err)
			return 1
		}
		games = append(games, g)
		labels = append(labels, gameLabel(i+1, rec))
	}
	one := func() (*recordfmt.Game, bool) {
		if len(games) != 1 {
			fmt.Fprintf(stderr, "kinrow export: --format %s writes one game and %s holds %d: choose one with --game N\n", *format, path, len(games))
			return nil, false
		}
		return games[0], true
	}
	var b bytes.Buffer
	switch *format {
	case "psq":
		g, ok := one()
		if !ok {
			return exitUsage
		}
		err = recordfmt.WritePSQ(&b, g)
	case "svg":
		g, ok := one()
		if !ok {
			return exitUsage
		}
		if *ply > len(g.Moves) {
			return bad("--ply %d: the game has %d plies", *ply, len(g.Moves))
		}
		var svg []byte
		svg, err = g.SVG(*ply)
		b.Write(svg)
	case "sgf":
		var mnk []*recordfmt.Game
		for i, g := range games {
			if g.Rules.Kind == engine.MNK {
				mnk = append(mnk, g)
			} else {
				fmt.Fprintf(stderr, "kinrow export: warning: %s left out: SGF holds m,n,k games, not %s\n", labels[i], g.Rules)
			}
		}
		if len(mnk) == 0 {
			fmt.Fprintf(stderr, "kinrow export: no m,n,k game to write as SGF (for Connect-X use --format text or svg)\n")
			return 1
		}
		err = recordfmt.WriteSGF(&b, mnk...)
	case "text":
		for i, g := range games {
			if err = recordfmt.WriteText(&b, labels[i], g); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "kinrow export:", err)
		return 1
	}
	return writeOutput(*out, b.Bytes(), stdout, stderr, "kinrow export")
}

// gameLabel names the n-th record of a file, with its round and game in
// the match when it has them.
func gameLabel(n int, rec *record.Record) string {
	if rec.Round > 0 {
		return fmt.Sprintf("game %d (round %d, game %d)", n, rec.Round, rec.Game)
	}
	return fmt.Sprintf("game %d", n)
}

// writeOutput writes data to path, or to stdout when path is "".
func writeOutput(path string, data []byte, stdout, stderr io.Writer, who string) int {
	if path == "" {
		if _, err := stdout.Write(data); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", who, err)
			return 1
		}
		return 0
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", who, err)
		return 1
	}
	return 0
}

const importUsage = `Usage: kinrow import [--rules RULES] [--plies N] [--out FILE] GAME.psq|GAME.sgf ...

Reads PSQ (Piskvork) and SGF (GM[4]) games and writes them as an openings
file for kinrow match --openings: a "#" line naming each game, then its
moves. An opening must leave the game open, so a finished game loses its
last move (said on stderr); --plies N keeps the first N plies only.
--rules gives K and checks the board (default: the SGF's RU, or
freestyle gomoku, five in a row, as Gomocup plays). Import is strict: a
PSQ line that is neither a move nor a header or trailer line Piskvork or
Gomocup writes, an illegal move, or an SGF RU kinrow cannot read is refused
naming the file and the line (exit 2; nothing is written).

Flags:
`

func importCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, importUsage); fs.PrintDefaults() }
	rulesText := fs.String("rules", "", "the rules the games are played under (gives K; the board must match)")
	plies := fs.Int("plies", 0, "keep the first N plies of each game (0: all that leave the game open)")
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinrow import: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() == 0 {
		return bad("want one or more PSQ or SGF files (kinrow import -h)")
	}
	if *plies < 0 {
		return bad("--plies %d: must be 0 (all) or more", *plies)
	}
	var want *engine.Rules
	k := 0
	if *rulesText != "" {
		r, err := engine.ParseRules(*rulesText)
		if err != nil {
			return bad("--rules: %v", err)
		}
		if r.Kind != engine.MNK {
			return bad("--rules %s: PSQ and SGF hold m,n,k games", r)
		}
		want, k = &r, r.K
	}
	var b bytes.Buffer
	var rules *engine.Rules
	for _, path := range fs.Args() {
		games, err := readGameFile(path, stdin, k)
		if err != nil {
			fmt.Fprintln(stderr, "kinrow import:", err)
			var le *recordfmt.LineError
			if errors.As(err, &le) {
				return exitUsage // the file is refused: nothing is written
			}
			return 1
		}
		for i, g := range games {
			name := path
			if len(games) > 1 {
				name = fmt.Sprintf("%s game %d", path, i+1)
			}
			if want != nil && g.Rules != *want {
				fmt.Fprintf(stderr, "kinrow import: %s: the board is %s, not --rules %s\n", name, g.Rules, *want)
				return 1
			}
			if rules != nil && g.Rules != *rules {
				fmt.Fprintf(stderr, "kinrow import: %s: %s, but the games before are %s: an openings file holds one game's openings\n", name, g.Rules, *rules)
				return 1
			}
			rules = &g.Rules
			moves := g.Moves
			if *plies > 0 && *plies < len(moves) {
				moves = moves[:*plies]
			}
			pos := engine.NewPosition(g.Rules)
			for _, m := range moves {
				pos.Play(m)
			}
			if pos.Result() != engine.Open {
				moves = moves[:len(moves)-1]
				fmt.Fprintf(stderr, "kinrow import: %s: the last move ends the game (%s): the opening stops before it\n", name, pos.Result().Describe())
			}
			fmt.Fprintf(&b, "# %s: %s\n%s\n", name, g.Title(), g.Rules.FormatMoveList(moves))
		}
	}
	fmt.Fprintf(stderr, "kinrow import: openings for --rules %s\n", *rules)
	return writeOutput(*out, b.Bytes(), stdout, stderr, "kinrow import")
}

// readGameFile reads a PSQ or an SGF file ("-" for stdin), telling them
// apart by their first character: '(' starts an SGF. A file the readers
// refuse is a *recordfmt.LineError, said as FILE:LINE: (or "stdin line N:").
func readGameFile(path string, stdin io.Reader, k int) ([]*recordfmt.Game, error) {
	var r io.Reader = stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	head, _ := br.Peek(512)
	if strings.HasPrefix(strings.TrimLeft(string(head), " \t\r\n\ufeff"), "(") {
		games, err := recordfmt.ReadSGF(br, k)
		if err != nil {
			return nil, lineError(path, err, "")
		}
		return games, nil
	}
	g, err := recordfmt.ReadPSQ(br, k)
	if err != nil {
		hint := ""
		if le := (*recordfmt.LineError)(nil); errors.As(err, &le) && le.Line <= 1 {
			hint = " (not an SGF either: no '(' at the start)"
		}
		return nil, lineError(path, err, hint)
	}
	return []*recordfmt.Game{g}, nil
}

// lineError names the file and the line of a reader's error: "FILE:LINE:
// psq: MSG", or "stdin line N: psq: MSG" for "-".
func lineError(path string, err error, hint string) error {
	var le *recordfmt.LineError
	if !errors.As(err, &le) {
		return fmt.Errorf("%s: %w%s", path, err, hint)
	}
	where := path
	switch {
	case path == "-" && le.Line > 0:
		where = fmt.Sprintf("stdin line %d", le.Line)
	case path == "-":
		where = "stdin"
	case le.Line > 0:
		where = fmt.Sprintf("%s:%d", path, le.Line)
	}
	return &fileLineError{msg: fmt.Sprintf("%s: %s: %s%s", where, le.Format, le.Msg, hint), le: le}
}

// fileLineError is a reader's *recordfmt.LineError said with its file.
type fileLineError struct {
	msg string
	le  *recordfmt.LineError
}

func (e *fileLineError) Error() string { return e.msg }
func (e *fileLineError) Unwrap() error { return e.le }
