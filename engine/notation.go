package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// columnLetters are GTP's column letters: A to Z without I.
const columnLetters = "abcdefghjklmnopqrstuvwxyz"

// notation is how a family writes its moves (Game's notation).
type notation interface {
	// columnLabel returns the label of a 0-based column.
	columnLabel(r Rules, col int) string
	// format prints a move on the board of r.
	format(r Rules, m Move) string
	// parse reads t, the move s lower case and trimmed, checking it lies on
	// the board; errors quote s.
	parse(r Rules, s, t string) (Move, error)
	// syntax tells what a move looks like.
	syntax(r Rules) string
	// digits tells whether move lists are plain digit strings ("4453").
	digits(r Rules) bool
}

// columnNotation writes a move as its column number from 1 (Connect-X).
type columnNotation struct{}

func (columnNotation) columnLabel(_ Rules, col int) string { return strconv.Itoa(col + 1) }

func (columnNotation) format(_ Rules, m Move) string { return strconv.Itoa(int(m) + 1) }

func (columnNotation) syntax(r Rules) string {
	return fmt.Sprintf("a column number from 1 to %d", r.Cols)
}

func (n columnNotation) parse(r Rules, s, t string) (Move, error) {
	col, err := strconv.Atoi(t)
	if err != nil || t == "" || t[0] < '0' || t[0] > '9' {
		return NoMove, fmt.Errorf("invalid move %q: want %s", s, n.syntax(r))
	}
	if col < 1 || col > r.Cols {
		return NoMove, fmt.Errorf("column %d %w: want %s", col, ErrOutOfBoard, n.syntax(r))
	}
	return Move(col - 1), nil
}

func (columnNotation) digits(r Rules) bool { return r.Cols <= 9 }

// vertexNotation writes a move as a GTP-style vertex such as "h8" (m,n,k).
type vertexNotation struct{}

func (vertexNotation) columnLabel(_ Rules, col int) string {
	n := len(columnLetters)
	var buf [4]byte
	i := len(buf)
	for v := col + 1; v > 0; v = (v - 1) / n {
		i--
		buf[i] = columnLetters[(v-1)%n]
	}
	return string(buf[i:])
}

func (n vertexNotation) format(r Rules, m Move) string {
	row, col := int(m)/r.Cols, int(m)%r.Cols
	return n.columnLabel(r, col) + strconv.Itoa(row+1)
}

func (n vertexNotation) syntax(r Rules) string {
	return fmt.Sprintf("a vertex from %s1 to %s%d (column letters without i, row 1 at the bottom)",
		n.columnLabel(r, 0), n.columnLabel(r, r.Cols-1), r.Rows)
}

func (n vertexNotation) parse(r Rules, s, t string) (Move, error) {
	i := 0
	for i < len(t) && t[i] >= 'a' && t[i] <= 'z' {
		i++
	}
	letters, digits := t[:i], t[i:]
	if letters == "" || digits == "" || len(letters) > 3 || digits[0] < '1' || digits[0] > '9' {
		return NoMove, fmt.Errorf("invalid move %q: want %s", s, n.syntax(r))
	}
	col := parseColumnLetters(letters)
	row, err := strconv.Atoi(digits)
	if col < 0 || err != nil {
		return NoMove, fmt.Errorf("invalid move %q: want %s", s, n.syntax(r))
	}
	if col >= r.Cols || row > r.Rows {
		return NoMove, fmt.Errorf("vertex %q %w: want %s", s, ErrOutOfBoard, n.syntax(r))
	}
	return Move((row-1)*r.Cols + col), nil
}

func (vertexNotation) digits(Rules) bool { return false }

// ColumnLabel returns the label of a 0-based column: "1".."C" for Connect-X;
// for m,n,k GTP's letters a..z without i, then, past 25 columns, two letters
// (aa, ab, …, az, ba, …) in bijective base 25, so every label is unambiguous.
func (r Rules) ColumnLabel(col int) string { return r.Game().notation.columnLabel(r, col) }

// parseColumnLetters reads a column label in bijective base 25; -1 if invalid.
func parseColumnLetters(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(columnLetters, s[i])
		if d < 0 || v > 1<<20 {
			return -1
		}
		v = v*len(columnLetters) + d + 1
	}
	return v - 1
}

// FormatMove prints m in the notation of r: a column number from 1 for
// Connect-X, a vertex such as "h8" (column letters, row 1 at the bottom) for
// m,n,k. ParseMove reads back every string FormatMove prints.
func (r Rules) FormatMove(m Move) string { return r.Game().notation.format(r, m) }

// MoveSyntax tells what a move looks like under r; error messages quote it.
func (r Rules) MoveSyntax() string { return r.Game().notation.syntax(r) }

// ParseMove reads a move in the notation of r (case-insensitive). It checks
// that the move lies on the board, not that it is legal in a position.
func (r Rules) ParseMove(s string) (Move, error) {
	return r.Game().notation.parse(r, s, strings.ToLower(strings.TrimSpace(s)))
}

// DigitMoveList tells whether r's move lists are plain digit strings such
// as "4453" (Connect-X with at most 9 columns, as common Connect-4 solvers
// write them) rather than moves separated by spaces.
func (r Rules) DigitMoveList() bool { return r.Game().notation.digits(r) }

// ParseMoveList reads a list of moves: for Connect-X with at most 9 columns a
// plain digit string such as "4453" (as common Connect-4 solvers write it);
// otherwise moves separated by spaces or commas. The empty string is the
// empty list. Moves are checked to lie on the board, not for legality.
func (r Rules) ParseMoveList(s string) ([]Move, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if r.DigitMoveList() && !strings.ContainsAny(s, " ,\t") {
		moves := make([]Move, 0, len(s))
		for i := 0; i < len(s); i++ {
			if d := int(s[i]) - '0'; d >= 1 && d <= r.Cols {
				moves = append(moves, Move(d-1)) // a column digit, as ParseMove reads it
				continue
			}
			_, err := r.ParseMove(s[i : i+1]) // refuses it too, and says why
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		return moves, nil
	}
	fields := strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == ',' || c == '\t' })
	moves := make([]Move, 0, len(fields))
	for i, f := range fields {
		m, err := r.ParseMove(f)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// FormatMoveList prints moves as ParseMoveList reads them: a digit string for
// Connect-X with at most 9 columns, otherwise moves separated by spaces.
func (r Rules) FormatMoveList(moves []Move) string {
	var b strings.Builder
	digits := r.DigitMoveList()
	for i, m := range moves {
		if i > 0 && !digits {
			b.WriteByte(' ')
		}
		b.WriteString(r.FormatMove(m))
	}
	return b.String()
}

// PlayMoveList plays a move list from the current position, checking each
// move; on error the moves before the bad one stay played and the error
// names the bad move's 1-based index.
func (p *Position) PlayMoveList(moves []Move) error {
	if len(p.history) == 0 && gravityListFits(p.rules) && p.playListFast(moves) {
		return nil
	}
	for i, m := range moves {
		if err := p.Apply(m); err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, p.rules.FormatMove(m), err)
		}
	}
	return nil
}
