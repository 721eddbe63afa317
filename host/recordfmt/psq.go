package recordfmt

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/gomocup"

	"github.com/kinrow/kinrow/host/termsafe"
)

// psqMaxSide bounds the board sides ReadPSQ accepts (kinrow's own limit).
const psqMaxSide = engine.MaxSide

// WritePSQ writes g as Piskvork saves a game: the header "Piskvork WxH,
// 11:11, 0" (width and height; the last two fields are Piskvork's usual
// ones and mean nothing to kinrow), one line "X,Y,MS" per move with
// 1-based Gomocup coordinates (X the column from the left, Y the row from
// the top) and the move's time in milliseconds, then the names of the
// first and the second player and "-1". Connect-X games have no PSQ form.
func WritePSQ(w io.Writer, g *Game) error {
	if !g.Rules.Game().Holds(engine.FormatPSQ) {
		return fmt.Errorf("psq: %s is not an m,n,k game: PSQ holds m,n,k boards only (use --format text or svg)", g.Rules)
	}
	width, height := gomocup.BoardSize(g.Rules)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Piskvork %dx%d, 11:11, 0\r\n", width, height)
	for i, m := range g.Moves {
		p, err := gomocup.FromMove(g.Rules, m)
		if err != nil {
			return fmt.Errorf("psq: move %d: %w", i+1, err)
		}
		fmt.Fprintf(bw, "%d,%d,%d\r\n", p.X+1, p.Y+1, g.MoveTime(i))
	}
	fmt.Fprintf(bw, "%s\r\n%s\r\n-1\r\n", psqName(g.Players.X), psqName(g.Players.O))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("psq: %w", err)
	}
	return nil
}

// psqName keeps a player's name on one line, and makes it read back as a
// name: one that would read as a move, a number or a broken move line is
// written in double quotes.
func psqName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(termsafe.Printable(s))
	if s == "" {
		return "?"
	}
	if classifyPSQ(s) != psqLineName {
		s = `"` + s + `"`
	}
	return s
}

// LineError is a PSQ or SGF that ReadPSQ or ReadSGF refuses: the format,
// the line of the file it is on (from 1; 0 when no line is to blame, such
// as an empty file), what the line holds and why it is refused. kinrow
// import prints it as FILE:LINE: MSG.
type LineError struct {
	Format string // "psq" or "sgf"
	Line   int
	Msg    string
}

func (e *LineError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d: %s", e.Format, e.Line, e.Msg)
	}
	return e.Format + ": " + e.Msg
}

// PSQAccepted says what ReadPSQ reads; its errors quote it.
const PSQAccepted = `accepted: the header "Piskvorky WxH, ...", moves "X,Y" or "X,Y,MS" ` +
	`(whole numbers, X and Y from 1), then optionally the two players' names (two lines), ` +
	`a result code (a number, e.g. -1) and Gomocup's "N,NAME" lines, in this order`

// psqLine is what a line of a PSQ is.
type psqLine int

const (
	psqLineMove psqLine = iota // "X,Y" or "X,Y,MS"
	psqLineCode                // a whole number alone: Piskvork's result code (-1, 0, ...)
	psqLineInfo                // "N,NAME": Gomocup's rule or group line ("0,Freestyle15_1")
	psqLineName                // any other text: a player (a brain's file name, "homo-1")
	psqLineBad                 // numbers and commas that are not a move: a broken move line
)

// classifyPSQ tells what a trimmed, non-blank PSQ line is.
func classifyPSQ(line string) psqLine {
	if _, _, _, ok := psqMove(line); ok {
		return psqLineMove
	}
	if isPSQInt(line) {
		return psqLineCode
	}
	if n, rest, ok := strings.Cut(line, ","); ok && isPSQInt(strings.TrimSpace(n)) {
		rest = strings.TrimSpace(rest)
		if rest != "" && isLetter(rest[0]) && !strings.ContainsAny(rest, ",") {
			return psqLineInfo
		}
		return psqLineBad // "12,12,1e3", "12,", "12,3,4,5"
	}
	if strings.IndexFunc(line, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) >= 0 {
		return psqLineBad // control characters: not a line of text
	}
	if strings.Trim(line, "0123456789+-.,;: \t") == "" {
		return psqLineBad // "12 12 100", "12;12", "12.12"
	}
	return psqLineName
}

func isPSQInt(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// ReadPSQ reads a PSQ game as Piskvork writes it: the header's board size
// (mnk:HxWxk, k 5 when 0: freestyle gomoku, as Gomocup plays it), the move
// lines "X,Y[,MS]" (1-based), then the trailer: the two players' names (or
// none), Piskvork's result code ("-1", "0", ...) and Gomocup's "N,NAME"
// lines, each optional, in this order. Every move is replayed. A line that
// fits none of these is refused, as is a move after the trailer began, one
// name alone or a third, so that no move is ever dropped; the error is a
// *LineError naming the line, what it holds and what a PSQ may hold.
func ReadPSQ(r io.Reader, k int) (*Game, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	n := 0
	next := func() (string, bool) {
		for sc.Scan() {
			n++
			if t := strings.TrimSpace(sc.Text()); t != "" {
				return t, true
			}
		}
		return "", false
	}
	fail := func(line int, format string, a ...any) error {
		return &LineError{Format: "psq", Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	header, ok := next()
	if !ok {
		if err := sc.Err(); err != nil {
			return nil, fail(n+1, "%v", err)
		}
		return nil, fail(0, "empty file")
	}
	header = strings.TrimPrefix(header, "\ufeff")
	width, height, err := psqHeader(header)
	if err != nil {
		return nil, fail(n, "%v", err)
	}
	if k == 0 {
		k = 5
	}
	rules, err := engine.NewRules(engine.MNK, height, width, k)
	if err != nil {
		return nil, fail(n, "board %dx%d: %v", width, height, err)
	}
	g := &Game{Rules: rules}
	pos := engine.NewPosition(rules)
	var names []string
	var nameLine int       // the first name's line
	var trailerLine int    // the first line after the moves, 0 while moves go on
	var trailerText string // what it holds
	codeLine := 0          // the result code's line
	for {
		line, ok := next()
		if !ok {
			break
		}
		kind := classifyPSQ(line)
		if kind != psqLineMove && trailerLine == 0 {
			trailerLine, trailerText = n, line
		}
		switch kind {
		case psqLineMove:
			if trailerLine != 0 {
				return nil, fail(n, "move %q after the end of the move list (line %d, %q, is not a move): "+
					"a broken move line or text among the moves; %s", line, trailerLine, trailerText, PSQAccepted)
			}
			x, y, ms, _ := psqMove(line)
			m, err := gomocup.ToMove(rules, gomocup.Point{X: x - 1, Y: y - 1})
			if err != nil || x < 1 || y < 1 {
				return nil, fail(n, "%q: point off the %dx%d board (1-based X,Y)", line, width, height)
			}
			if err := pos.Apply(m); err != nil {
				return nil, fail(n, "%q (%s): %v", line, rules.FormatMove(m), err)
			}
			g.Moves = append(g.Moves, m)
			g.MS = append(g.MS, ms)
		case psqLineBad:
			return nil, fail(n, "%q is neither a move nor a line a PSQ has after its moves; %s", line, PSQAccepted)
		case psqLineName:
			switch {
			case codeLine != 0:
				return nil, fail(n, "%q after the result code on line %d: only Gomocup's \"N,NAME\" lines may follow it; %s",
					line, codeLine, PSQAccepted)
			case len(names) == 2:
				return nil, fail(n, "%q: a third line of text after the moves (the players are %q and %q); %s",
					line, names[0], names[1], PSQAccepted)
			}
			if len(names) == 0 {
				nameLine = n
			}
			names = append(names, line)
		case psqLineCode:
			if codeLine != 0 {
				return nil, fail(n, "%q: a second result code (the first is on line %d) where a move or a name was expected; %s",
					line, codeLine, PSQAccepted)
			}
			if len(names) == 1 {
				return nil, fail(nameLine, "%q: one player's name only before the result code (a PSQ names both players, or neither); %s",
					names[0], PSQAccepted)
			}
			codeLine = n
		case psqLineInfo:
			if codeLine == 0 {
				return nil, fail(n, "%q is not a move, and a Gomocup \"N,NAME\" line comes only after the result code; %s", line, PSQAccepted)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fail(n+1, "%v", err)
	}
	if len(names) == 1 {
		return nil, fail(nameLine, "%q: one line of text after the moves (a PSQ names both players, or neither); %s",
			names[0], PSQAccepted)
	}
	if len(names) == 2 {
		g.Players.X, g.Players.O = names[0], names[1]
	}
	g.Result = pos.Result().String()
	return g, nil
}

// psqHeader reads "Piskvork WxH, ..." (any first word; WxH is what counts).
func psqHeader(line string) (width, height int, err error) {
	fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
	for _, f := range fields {
		ws, hs, ok := strings.Cut(strings.ToLower(f), "x")
		if !ok {
			continue
		}
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if err1 != nil || err2 != nil {
			continue
		}
		if w < 1 || h < 1 || w > psqMaxSide || h > psqMaxSide {
			return 0, 0, fmt.Errorf("board %dx%d: sides from 1 to %d are supported", w, h, psqMaxSide)
		}
		return w, h, nil
	}
	return 0, 0, fmt.Errorf("header %q has no board size WxH (want e.g. \"Piskvork 20x20, 11:11, 0\")", line)
}

// psqMove reads "X,Y" or "X,Y,MS" with non-negative numbers.
func psqMove(line string) (x, y int, ms int64, ok bool) {
	parts := strings.Split(line, ",")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, 0, false
	}
	var v [3]int64
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || len(p) > 9 {
			return 0, 0, 0, false
		}
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' {
				return 0, 0, 0, false
			}
		}
		v[i], _ = strconv.ParseInt(p, 10, 64)
	}
	return int(v[0]), int(v[1]), v[2], true
}
