package recordfmt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// ChoiceError is an export or import refused for what was asked (a
// format, a game or a ply that does not fit the file), not for the file.
type ChoiceError struct{ Msg string }

func (e *ChoiceError) Error() string { return e.Msg }

func choice(format string, a ...any) error { return &ChoiceError{fmt.Sprintf(format, a...)} }

// ExportFormats are the formats Export writes.
var ExportFormats = []string{"psq", "sgf", "text", "svg"}

// Export is kinrow export: the games of recs (read from the file named
// name) in format (one of ExportFormats): every game, or the game-th
// (from 1) when game > 0; svg shows the position after ply plies (< 0: the
// end). Games a format cannot hold are left out, each named in warnings.
func Export(recs []*record.Record, name, format string, game, ply int) (data []byte, warnings []string, err error) {
	if !slices.Contains(ExportFormats, format) {
		return nil, nil, choice("--format %q: accepted are psq, sgf, text and svg", format)
	}
	if game < 0 {
		return nil, nil, choice("--game %d: games are numbered from 1", game)
	}
	if game > len(recs) {
		return nil, nil, choice("--game %d: %s holds %d games (1 to %d)", game, name, len(recs), len(recs))
	}
	var games []*Game
	var labels []string
	for i, rec := range recs {
		if game != 0 && i+1 != game {
			continue
		}
		g, err := FromRecord(rec)
		if err != nil {
			return nil, nil, fmt.Errorf("%s game %d: %w", name, i+1, err)
		}
		games = append(games, g)
		labels = append(labels, gameLabel(i+1, rec))
	}
	if (format == "psq" || format == "svg") && len(games) != 1 {
		return nil, nil, choice("--format %s writes one game and %s holds %d: choose one with --game N", format, name, len(games))
	}
	var b bytes.Buffer
	switch format {
	case "psq":
		err = WritePSQ(&b, games[0])
	case "svg":
		if ply > len(games[0].Moves) {
			return nil, nil, choice("--ply %d: the game has %d plies", ply, len(games[0].Moves))
		}
		var svg []byte
		svg, err = games[0].SVG(ply)
		b.Write(svg)
	case "sgf":
		var mnk []*Game
		for i, g := range games {
			if g.Rules.Game().Holds(engine.FormatSGF) {
				mnk = append(mnk, g)
			} else {
				warnings = append(warnings, fmt.Sprintf("%s left out: SGF holds m,n,k games, not %s", labels[i], g.Rules))
			}
		}
		if len(mnk) == 0 {
			return nil, warnings, errors.New("no m,n,k game to write as SGF (for Connect-X use --format text or svg)")
		}
		err = WriteSGF(&b, mnk...)
	case "text":
		for i, g := range games {
			if err = WriteText(&b, labels[i], g); err != nil {
				break
			}
		}
	}
	return b.Bytes(), warnings, err
}

// gameLabel names the n-th record of a file, with its round and game in
// the match when it has them.
func gameLabel(n int, rec *record.Record) string {
	if rec.Round > 0 {
		return fmt.Sprintf("game %d (round %d, game %d)", n, rec.Round, rec.Game)
	}
	return fmt.Sprintf("game %d", n)
}

// ImportOpenings is kinrow import: the games of the PSQ and SGF files at
// paths ("-": stdin) as an openings file, a "#" line naming each game and
// its moves, the first plies only when plies > 0, a finished game without
// its last move. want, when not nil, gives K and the board every game
// must have. It returns the openings, their rules and the notes to tell
// the user (a last move dropped). A file the readers refuse is a
// *LineError naming the file and the line.
func ImportOpenings(paths []string, stdin io.Reader, want *engine.Rules, plies int) (data []byte, rules engine.Rules, notes []string, err error) {
	k := 0
	if want != nil {
		if !want.Game().Holds(engine.FormatPSQ) || !want.Game().Holds(engine.FormatSGF) {
			return nil, rules, nil, choice("--rules %s: PSQ and SGF hold m,n,k games", *want)
		}
		k = want.K
	}
	var b bytes.Buffer
	for n, path := range paths {
		games, err := readGameFile(path, stdin, k)
		if err != nil {
			return nil, rules, notes, err
		}
		for i, g := range games {
			name := path
			if len(games) > 1 {
				name = fmt.Sprintf("%s game %d", path, i+1)
			}
			switch {
			case want != nil && g.Rules != *want:
				return nil, rules, notes, fmt.Errorf("%s: the board is %s, not --rules %s", name, g.Rules, *want)
			case (n > 0 || i > 0) && g.Rules != rules:
				return nil, rules, notes, fmt.Errorf("%s: %s, but the games before are %s: an openings file holds one game's openings", name, g.Rules, rules)
			}
			rules = g.Rules
			moves := g.Moves
			if plies > 0 && plies < len(moves) {
				moves = moves[:plies]
			}
			pos := engine.NewPosition(g.Rules)
			for _, m := range moves {
				pos.Play(m)
			}
			if pos.Result() != engine.Open {
				moves = moves[:len(moves)-1]
				notes = append(notes, fmt.Sprintf("%s: the last move ends the game (%s): the opening stops before it", name, pos.Result().Describe()))
			}
			fmt.Fprintf(&b, "# %s: %s\n%s\n", name, g.Title(), g.Rules.FormatMoveList(moves))
		}
	}
	return b.Bytes(), rules, notes, nil
}

// readGameFile reads a PSQ or an SGF file ("-" for stdin), telling them
// apart by their first character: '(' starts an SGF. A file the readers
// refuse is a *LineError, said as FILE:LINE: (or "stdin line N:").
func readGameFile(path string, stdin io.Reader, k int) ([]*Game, error) {
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
		games, err := ReadSGF(br, k)
		if err != nil {
			return nil, lineError(path, err, "")
		}
		return games, nil
	}
	g, err := ReadPSQ(br, k)
	if err != nil {
		hint := ""
		if le := (*LineError)(nil); errors.As(err, &le) && le.Line <= 1 {
			hint = " (not an SGF either: no '(' at the start)"
		}
		return nil, lineError(path, err, hint)
	}
	return []*Game{g}, nil
}

// lineError names the file and the line of a reader's error: "FILE:LINE:
// psq: MSG", or "stdin line N: psq: MSG" for "-".
func lineError(path string, err error, hint string) error {
	var le *LineError
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

// fileLineError is a reader's *LineError said with its file.
type fileLineError struct {
	msg string
	le  *LineError
}

func (e *fileLineError) Error() string { return e.msg }
func (e *fileLineError) Unwrap() error { return e.le }
