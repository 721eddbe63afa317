package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Move is a move in the internal numbering of its rules: the 0-based column
// for Connect-X, the cell index row*Cols+col (row 0 at the bottom) for m,n,k.
// Use Rules.FormatMove and Rules.ParseMove to convert from and to notation.
type Move int32

// NoMove is the zero-information move, e.g. the last move of an empty board.
const NoMove Move = -1

// Errors returned by Position.Check, wrapped with the details.
var (
	ErrGameOver      = errors.New("game is over")
	ErrOutOfBoard    = errors.New("outside the board")
	ErrOccupied      = errors.New("cell is occupied")
	ErrColumnFull    = errors.New("column is full")
	ErrNothingToUndo = errors.New("no move to undo")
	// ErrForbidden: a move renju forbids to black; errors.As finds a
	// *ForbiddenError with the foul.
	ErrForbidden = errors.New("forbidden")
)

// ForbiddenError is the error of a move the line rule forbids: the move (in
// notation) and the foul it makes. It matches ErrForbidden with errors.Is.
type ForbiddenError struct {
	Move string
	Foul Foul
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("%s is forbidden to black in renju (%s)", e.Move, e.Foul)
}

// Is makes errors.Is(err, ErrForbidden) true.
func (e *ForbiddenError) Is(target error) bool { return target == ErrForbidden }

// Position is a board of any size allowed by its rules, with the side to
// move, the moves played, the result and a Zobrist hash. Play, Undo and the
// win check allocate nothing.
type Position struct {
	rules   Rules
	line    *lineDef // the line rule's entry, asked in the hot paths
	cells   []Color  // row*Cols+col, row 0 at the bottom
	heights []int    // Connect-X: stones in each column
	history []int32  // cells played, in order
	hash    uint64
	result  Result
	// legalHint is a cell black could play the last time renju asked
	// whether black has a legal move: tried first next time.
	legalHint int
}

// NewPosition returns the empty board of r. r must be valid (see Rules.Validate).
func NewPosition(r Rules) *Position {
	p := &Position{
		rules:   r,
		line:    &lines[r.Line],
		cells:   make([]Color, r.Cells()),
		history: make([]int32, 0, r.Cells()),
	}
	for i := range p.cells {
		p.cells[i] = Empty
	}
	if r.Gravity() {
		p.heights = make([]int, r.Cols)
	}
	return p
}

// Clone returns an independent copy of p.
func (p *Position) Clone() *Position {
	q := *p
	q.cells = append([]Color(nil), p.cells...)
	q.history = append(make([]int32, 0, cap(p.history)), p.history...)
	if p.heights != nil {
		q.heights = append([]int(nil), p.heights...)
	}
	return &q
}

// Rules returns the rules of the game.
func (p *Position) Rules() Rules { return p.rules }

// Ply returns the number of stones on the board.
func (p *Position) Ply() int { return len(p.history) }

// ToMove returns the side to move (X when Ply is even).
func (p *Position) ToMove() Color { return Color(len(p.history) & 1) }

// Hash returns the Zobrist hash of the stones and the side to move.
func (p *Position) Hash() uint64 { return p.hash }

// Result returns whether the game is open, won or drawn.
func (p *Position) Result() Result { return p.result }

// At returns the content of the cell at row (0 at the bottom) and col.
func (p *Position) At(row, col int) Color { return p.cells[row*p.rules.Cols+col] }

// Height returns the number of stones in a Connect-X column (0 for m,n,k).
func (p *Position) Height(col int) int {
	if p.heights == nil {
		return 0
	}
	return p.heights[col]
}

// Cell returns the cell a legal move m would fill.
func (p *Position) Cell(m Move) int {
	if p.heights != nil { // gravity
		return p.heights[m]*p.rules.Cols + int(m)
	}
	return int(m)
}

// MoveOfCell returns the move that filled cell (its column for Connect-X).
func (p *Position) MoveOfCell(cell int) Move {
	if p.heights != nil { // gravity
		return Move(cell % p.rules.Cols)
	}
	return Move(cell)
}

// Check tells whether m is legal now; the error says why not.
func (p *Position) Check(m Move) error {
	if p.result != Open {
		return fmt.Errorf("%w (%s)", ErrGameOver, p.result.Describe())
	}
	if p.rules.Gravity() {
		if m < 0 || int(m) >= p.rules.Cols {
			return fmt.Errorf("column %d %w (columns are 1 to %d)", m+1, ErrOutOfBoard, p.rules.Cols)
		}
		if p.heights[m] >= p.rules.Rows {
			return fmt.Errorf("column %d: %w", m+1, ErrColumnFull)
		}
		return nil
	}
	if m < 0 || int(m) >= len(p.cells) {
		return fmt.Errorf("cell %d %w", m, ErrOutOfBoard)
	}
	if p.cells[m] != Empty {
		return fmt.Errorf("%s: %w", p.rules.FormatMove(m), ErrOccupied)
	}
	if p.rules.Line.Forbids(p.ToMove()) {
		if f := p.rules.Line.Judge(p, int(m)); f != NoFoul {
			return &ForbiddenError{Move: p.rules.FormatMove(m), Foul: f}
		}
	}
	return nil
}

// Foul tells whether the side to move may not play m under the line rule,
// and why: only black's moves in renju can be fouls; NoFoul for every other
// move, an occupied cell or a move off the board. The position is the same
// afterwards (the judgement places stones and takes them back, so it must
// not run while another goroutine reads p).
func (p *Position) Foul(m Move) Foul {
	if !p.rules.Line.Forbids(p.ToMove()) || m < 0 || int(m) >= len(p.cells) || p.cells[m] != Empty {
		return NoFoul
	}
	return p.rules.Line.Judge(p, int(m))
}

// Legal reports whether m can be played now.
func (p *Position) Legal(m Move) bool { return p.Check(m) == nil }

// Apply plays m after checking it; on error the position is unchanged.
func (p *Position) Apply(m Move) error {
	if err := p.Check(m); err != nil {
		return err
	}
	p.Play(m)
	return nil
}

// Play plays a legal move for the side to move, updating the hash and the
// result. It does not check legality: use Check or Apply for untrusted moves.
func (p *Position) Play(m Move) {
	c := p.ToMove()
	cell := p.Cell(m)
	if p.heights != nil {
		p.heights[m]++
	}
	p.cells[cell] = c
	p.history = append(p.history, int32(cell))
	p.hash ^= ZobristKey(cell, c) ^ SideKey
	// A side with fewer than K stones cannot have a line of K: most of a
	// replayed opening skips the line walks.
	stones := (len(p.history) + 1 - int(c)) / 2
	switch {
	case stones >= p.rules.K && p.winsAt(cell, c):
		p.result = WinFor(c)
	case len(p.history) == len(p.cells):
		p.result = Draw
	case p.line.fouls.has(c.Other()) && !p.canMove():
		p.result = Draw // the side to move has no legal move: see Stuck
	}
}

// canMove tells whether the side to move, some of whose moves the line rule
// forbids (black in renju), has an empty cell that is not a foul. The cell
// found last time is tried first, so the test costs one judgement in nearly
// every position.
func (p *Position) canMove() bool {
	l := p.rules.Line
	if h := p.legalHint; p.cells[h] == Empty && l.Judge(p, h) == NoFoul {
		return true
	}
	for i, v := range p.cells {
		if v == Empty && l.Judge(p, i) == NoFoul {
			p.legalHint = i
			return true
		}
	}
	return false
}

// Stuck tells whether the game ended because the side to move has no legal
// move while empty cells remain: in renju, when every empty cell is
// forbidden to black. The Renju International Federation's rules let a
// player pass and draw the game when both pass in turn; kinrow has no pass,
// so the game is drawn at once (Result is Draw), as when the board is full.
func (p *Position) Stuck() bool {
	return p.result == Draw && len(p.history) < len(p.cells)
}

// Undo takes back the last move and returns it; false if the board is empty.
func (p *Position) Undo() (Move, bool) {
	n := len(p.history)
	if n == 0 {
		return NoMove, false
	}
	cell := int(p.history[n-1])
	p.history = p.history[:n-1]
	c := p.cells[cell]
	p.cells[cell] = Empty
	if p.heights != nil {
		p.heights[cell%p.rules.Cols]--
	}
	p.hash ^= ZobristKey(cell, c) ^ SideKey
	p.result = Open
	return p.MoveOfCell(cell), true
}

// LastMove returns the last move played, or NoMove on an empty board.
func (p *Position) LastMove() Move {
	if len(p.history) == 0 {
		return NoMove
	}
	return p.MoveOfCell(int(p.history[len(p.history)-1]))
}

// Moves appends the moves played so far, in order, to dst.
func (p *Position) Moves(dst []Move) []Move {
	for _, cell := range p.history {
		dst = append(dst, p.MoveOfCell(int(cell)))
	}
	return dst
}

// LegalMoves appends the legal moves to dst, in increasing order; none once
// the game is over.
func (p *Position) LegalMoves(dst []Move) []Move {
	if p.result != Open {
		return dst
	}
	if p.heights != nil {
		for c, h := range p.heights {
			if h < p.rules.Rows {
				dst = append(dst, Move(c))
			}
		}
		return dst
	}
	fouls := p.rules.Line.Forbids(p.ToMove())
	for i, v := range p.cells {
		if v == Empty && (!fouls || p.rules.Line.Judge(p, i) == NoFoul) {
			dst = append(dst, Move(i))
		}
	}
	return dst
}

// WinsAt reports whether a stone of colour c on cell (played or not) lies on
// a winning line of c, counting the cell itself: a line of at least K stones
// of c in freestyle (and for white in renju), of exactly K in exact and for
// black in renju.
func (p *Position) WinsAt(cell int, c Color) bool { return p.winsAt(cell, c) }

// winsAt tells whether c's stones through cell make a winning line: K or
// more in a row, or exactly K where the line rule wants exactly K for c
// (each direction then counts to K+1, to see an overline).
func (p *Position) winsAt(cell int, c Color) bool {
	cols, rows, k := p.rules.Cols, p.rules.Rows, p.rules.K
	most := k
	if p.line.exact.has(c) {
		most = k + 1
	}
	r0, c0 := cell/cols, cell%cols
	cells := p.cells
	// Each direction (horizontal, vertical, diagonal, anti-diagonal) walks
	// a step in cells, both ways, as far as the board's edge allows: the
	// edges are computed once, not tested at every cell. Row 0 is the
	// bottom: a step of +cols goes up.
	left, right, below, above := c0, cols-1-c0, r0, rows-1-r0
	for d, step := range [4]int{1, cols, cols + 1, cols - 1} {
		var fwd, back int
		switch d {
		case 0:
			fwd, back = right, left
		case 1:
			fwd, back = above, below
		case 2:
			fwd, back = min(right, above), min(left, below)
		default:
			fwd, back = min(left, above), min(right, below)
		}
		n := 1
		for at := cell + step; fwd > 0 && n < most && cells[at] == c; at += step {
			n++
			fwd--
		}
		for at := cell - step; back > 0 && n < most && cells[at] == c; at -= step {
			n++
			back--
		}
		if n == k { // n stops at most: K+1 is an overline where exactly K wins
			return true
		}
	}
	return false
}

// LastCell is the cell the last move filled, or -1 on an empty board.
func (p *Position) LastCell() int {
	if len(p.history) == 0 {
		return -1
	}
	return int(p.history[len(p.history)-1])
}

// WinningLine returns the cells of the line that won the game, through the
// last move, under the rules' line rule (exactly K where only exactly K
// wins), from one end to the other; nil while no one has won.
func (p *Position) WinningLine() []int {
	cell := p.LastCell()
	if cell < 0 || p.Result().Winner() == Empty {
		return nil
	}
	c := p.cells[cell]
	cols, rows := p.rules.Cols, p.rules.Rows
	r0, c0 := cell/cols, cell%cols
	for d := 0; d < 4; d++ {
		dr, dc := Direction(d)
		rs, cs := r0, c0
		for r, cc := rs-dr, cs-dc; r >= 0 && r < rows && cc >= 0 && cc < cols && p.cells[r*cols+cc] == c; r, cc = r-dr, cc-dc {
			rs, cs = r, cc
		}
		var line []int
		for r, cc := rs, cs; r >= 0 && r < rows && cc >= 0 && cc < cols && p.cells[r*cols+cc] == c; r, cc = r+dr, cc+dc {
			line = append(line, r*cols+cc)
		}
		if p.rules.Line.Wins(c, len(line), p.rules.K) {
			return line
		}
	}
	return nil
}

// Direction returns the d-th (0..3) of the four line directions as a (row,
// column) step: horizontal, vertical, diagonal, anti-diagonal.
func Direction(d int) (dr, dc int) {
	switch d {
	case 0:
		return 0, 1
	case 1:
		return 1, 0
	case 2:
		return 1, 1
	}
	return 1, -1
}

// Describe says the result in words: "x wins", "o wins", "draw" or "open".
func (r Result) Describe() string {
	switch r {
	case XWins:
		return "x wins"
	case OWins:
		return "o wins"
	case Draw:
		return "draw"
	}
	return "open"
}

// Diagram draws the board as text, row Rows at the top, with column labels
// in the game's notation, e.g. for Connect-4:
//
//	1 2 3 4 5 6 7
//	. . . . . . .
//	. . . x . . .
func (p *Position) Diagram() string {
	var b strings.Builder
	r := p.rules
	width := 1
	labels := make([]string, r.Cols)
	for c := 0; c < r.Cols; c++ {
		labels[c] = r.ColumnLabel(c)
		width = max(width, len(labels[c]))
	}
	rowWidth := len(fmt.Sprint(r.Rows))
	header := func() {
		if !r.Gravity() {
			b.WriteString(strings.Repeat(" ", rowWidth))
		}
		for _, l := range labels {
			fmt.Fprintf(&b, " %*s", width, l)
		}
		b.WriteByte('\n')
	}
	header()
	for row := r.Rows - 1; row >= 0; row-- {
		if !r.Gravity() {
			fmt.Fprintf(&b, "%*d", rowWidth, row+1)
		}
		for c := 0; c < r.Cols; c++ {
			fmt.Fprintf(&b, " %*s", width, p.At(row, c).String())
		}
		if !r.Gravity() {
			fmt.Fprintf(&b, " %d", row+1)
		}
		b.WriteByte('\n')
	}
	if !r.Gravity() {
		header()
	}
	return strings.TrimRight(b.String(), "\n")
}
