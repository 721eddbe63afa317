package solver

import (
	"errors"
	"fmt"
)

// maxCols bounds the number of columns: (rows+1)*cols <= 64 with rows >= 1.
const maxCols = 32

// geom holds the constants of one board: the bit layout, the masks and the
// score scale. Column c occupies bits c*h .. c*h+rows-1 (bottom first) and
// bit c*h+rows is its sentinel, always empty; h = rows+1.
type geom struct {
	rows, cols, k, h int
	cells            int    // rows*cols
	half             int    // (cells+1)/2: scoreAt(n) = half - n/2
	bottom           uint64 // bottom cell of every column
	board            uint64 // every playable cell
	fast4            bool   // k == 4 and every direction fits: fixed shift formula
	h7               bool   // fast4 on 6 rows (h = 7), cols <= 7: constant shifts
	m7               bool   // 6x7: mirrorKey with constant shifts
	vert, horiz, dia bool   // which directions can hold k in a row
	sh               [3]uint
	colMask          [maxCols]uint64
	top              [maxCols]uint64 // top cell of each column
	colOf            [64]uint8       // the column of each bit
	order            [maxCols]uint8  // columns, centre first
	leftHalf         uint64          // the cells of the columns left of the centre, and the centre's
	colBits          uint64          // the h bits of column 0
	// evenRows: the cells of the rows whose parity is the number of rows'
	// (rows 0, 2 and 4 on six rows); oddRows: the other cells. See
	// parity.go.
	evenRows, oddRows uint64
}

func newGeom(rows, cols, k int) (*geom, error) {
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("solver: board %dx%d: rows and cols must be at least 1", rows, cols)
	}
	if (rows+1)*cols > 64 {
		return nil, fmt.Errorf("solver: board %dx%d needs (rows+1)*cols = %d bits; the limit is 64", rows, cols, (rows+1)*cols)
	}
	if k < 2 || k > max(rows, cols) {
		return nil, fmt.Errorf("solver: k = %d out of range 2..%d (max(rows, cols))", k, max(rows, cols))
	}
	g := &geom{rows: rows, cols: cols, k: k, h: rows + 1, cells: rows * cols}
	g.half = (g.cells + 1) / 2
	col := uint64(1)<<uint(rows) - 1
	for c := 0; c < cols; c++ {
		g.colMask[c] = col << uint(c*g.h)
		g.bottom |= 1 << uint(c*g.h)
		g.board |= g.colMask[c]
	}
	// Centre first, then alternately left and right of it.
	for i := 0; i < cols; i++ {
		g.order[i] = uint8(cols/2 + (1-2*(i%2))*(i+1)/2)
	}
	for i := range g.colOf {
		g.colOf[i] = uint8(min(i/g.h, maxCols-1))
	}
	for c := 0; c < cols; c++ {
		g.top[c] = 1 << uint(c*g.h+rows-1)
		if 2*c <= cols-1 {
			g.leftHalf |= g.colMask[c]
		}
	}
	g.colBits = uint64(1)<<uint(g.h) - 1
	for r := rows % 2; r < rows; r += 2 {
		g.evenRows |= g.bottom << uint(r)
	}
	g.oddRows = g.board &^ g.evenRows
	g.vert = k <= rows
	g.horiz = k <= cols
	g.dia = k <= rows && k <= cols
	g.sh = [3]uint{uint(g.h - 1), uint(g.h), uint(g.h + 1)}
	g.fast4 = k == 4 && g.vert && g.horiz
	g.h7 = g.fast4 && g.h == 7 && cols <= 7
	g.m7 = g.h == 7 && cols == 7
	return g, nil
}

// mirrorKey returns the key (cur + mask, see table.go) of the mirror image
// of the position of key: the key's columns are independent (h bits each,
// no carry between them), so mirroring the key mirrors the position.
func (g *geom) mirrorKey(key uint64) uint64 {
	if g.m7 {
		return mirror7x7(key)
	}
	var r uint64
	h := uint(g.h)
	for c := 0; c < g.cols; c++ {
		r |= (key >> (uint(c) * h & 63) & g.colBits) << (uint(g.cols-1-c) * h & 63)
	}
	return r
}

// mirror7x7 is mirrorKey for 7 columns of 7 bits (6x7, Connect-4's board)
// with constant shifts.
func mirror7x7(k uint64) uint64 {
	const c = 0x7f
	return (k&c)<<42 | (k>>7&c)<<35 | (k>>14&c)<<28 | k&(c<<21) |
		(k>>28&c)<<14 | (k>>35&c)<<7 | k>>42&c
}

// scoreAt is the score of the side that wins by playing move n+1 (n stones
// on the board before it).
func (g *geom) scoreAt(n int) int { return g.half - n>>1 }

// aligned reports whether pos holds k stones in a row. Runs are built by
// doubling: after m &= m>>(l*d) every set bit starts a run of 2l; a last
// overlapping step reaches exactly k. Every shift is below 64 because only
// directions that can hold k stones are tested (see the shift bound in
// winCells).
func (g *geom) aligned(pos uint64) bool {
	if g.h7 {
		return aligned4h7(pos)
	}
	k := g.k
	run := func(d uint) bool {
		m := pos
		l := 1
		for 2*l <= k {
			m &= m >> (uint(l) * d & 63)
			l *= 2
		}
		if l < k {
			m &= m >> (uint(k-l) * d & 63)
		}
		return m != 0
	}
	if g.vert && run(1) {
		return true
	}
	if g.horiz && run(g.sh[1]) {
		return true
	}
	if g.dia && (run(g.sh[0]) || run(g.sh[2])) {
		return true
	}
	return false
}

// aligned4h7 is aligned for four in a row on 6-row boards of at most 7
// columns (h = 7), with constant shifts: vertical 1, horizontal 7,
// diagonals 6 and 8.
func aligned4h7(pos uint64) bool {
	m := pos & (pos >> 1)
	if m&(m>>2) != 0 {
		return true
	}
	m = pos & (pos >> 7)
	if m&(m>>14) != 0 {
		return true
	}
	m = pos & (pos >> 6)
	if m&(m>>12) != 0 {
		return true
	}
	m = pos & (pos >> 8)
	return m&(m>>16) != 0
}

// winCells returns the empty cells (playable now or later) where a stone of
// pos would complete k in a row. A run never wraps from one column into
// the next without crossing a sentinel cell, which holds no stone, so
// shifts need no edge masks. Shift bound: a direction is tested only when
// k stones fit along it, so the largest shift, (k-1)*(h+1) for a diagonal
// (k <= rows = h-1, k*h <= cols*h <= 64), (k-1)*h horizontally, stays
// below 64.
func (g *geom) winCells(pos, mask uint64) uint64 {
	if g.h7 {
		return winCells4h7(pos) & (g.board ^ mask)
	}
	return g.winCellsAny(pos, mask)
}

// winCellsAny is winCells for every board: the fast4 formula with
// variable shifts, or the general one.
func (g *geom) winCellsAny(pos, mask uint64) uint64 {
	var r uint64
	if g.fast4 {
		// Vertical: three stones right below.
		r = (pos << 1) & (pos << 2) & (pos << 3)
		for _, d := range g.sh {
			d &= 63
			d2, d3 := (2*d)&63, (3*d)&63
			p := (pos << d) & (pos << d2)
			r |= p & (pos << d3)
			r |= p & (pos >> d)
			p = (pos >> d) & (pos >> d2)
			r |= p & (pos << d)
			r |= p & (pos >> d3)
		}
		return r & (g.board ^ mask)
	}
	return g.winCellsK(pos) & (g.board ^ mask)
}

// winCells4h7 is the fast4 formula with the shifts of 6-row boards of at
// most 7 columns (h = 7) as constants: Connect-4 itself, the case the
// package is tuned for. (pos>>d & pos>>2d) is computed as (pos<<d &
// pos<<2d) >> 3d, which loses no stone off the top: the highest cell is
// bit 7*7-2 = 47, and 47+2*8 < 64.
func winCells4h7(pos uint64) uint64 {
	r := (pos << 1) & (pos << 2) & (pos << 3)
	p := (pos << 6) & (pos << 12)
	r |= p & ((pos << 18) | (pos >> 6))
	p >>= 18
	r |= p & ((pos << 6) | (pos >> 18))
	p = (pos << 7) & (pos << 14)
	r |= p & ((pos << 21) | (pos >> 7))
	p >>= 21
	r |= p & ((pos << 7) | (pos >> 21))
	p = (pos << 8) & (pos << 16)
	r |= p & ((pos << 24) | (pos >> 8))
	p >>= 24
	r |= p & ((pos << 8) | (pos >> 24))
	return r
}

// winCellsK is the general form: a cell wins if, along some direction,
// the j cells before it and the k-1-j cells after it hold stones.
func (g *geom) winCellsK(pos uint64) uint64 {
	k := g.k
	var r uint64
	if g.vert {
		m := ^uint64(0)
		for i := 1; i < k; i++ {
			m &= pos << uint(i)
		}
		r |= m
	}
	var after [64]uint64
	line := func(d uint) {
		// after[j]: cells followed by j stones along +d.
		after[0] = ^uint64(0)
		for j := 1; j < k; j++ {
			after[j] = after[j-1] & (pos >> (uint(j) * d & 63))
		}
		before := ^uint64(0)
		for j := 0; j < k; j++ {
			r |= before & after[k-1-j]
			before &= pos << (uint(j+1) * d & 63)
			if before == 0 {
				break
			}
		}
	}
	if g.horiz {
		line(g.sh[1])
	}
	if g.dia {
		line(g.sh[0])
		line(g.sh[2])
	}
	return r
}

// Position is a board position: the stones of the side to move, every
// stone (mask) and the number of stones played. It is a small value type,
// cheap to copy. Columns are 0-based in every method. The zero Position is
// not usable: get one from Solver.NewPosition.
type Position struct {
	cur, mask uint64
	moves     int
	g         *geom
}

// CanPlay reports whether column col (0-based) exists and is not full.
func (p *Position) CanPlay(col int) bool {
	return col >= 0 && col < p.g.cols && p.mask&p.g.top[col] == 0
}

// Play drops a stone of the side to move into column col, which must be
// playable (see CanPlay); it does not check for a win.
func (p *Position) Play(col int) {
	mv := (p.mask + p.g.bottom) & p.g.colMask[col]
	p.cur ^= p.mask
	p.mask |= mv
	p.moves++
}

// IsWinningMove reports whether playing the playable column col makes k in
// a row for the side to move.
func (p *Position) IsWinningMove(col int) bool {
	g := p.g
	return g.winCells(p.cur, p.mask)&(p.mask+g.bottom)&g.colMask[col] != 0
}

// Bits returns the position's bitboards: the stones of the side to move
// and every stone. Column c holds bits c*(Rows()+1) .. c*(Rows()+1)+Rows()-1,
// bottom first; the bit above each column is always empty.
func (p Position) Bits() (cur, mask uint64) { return p.cur, p.mask }

// Key returns a number that identifies the position among those of its
// board (cur + mask: the stones of the side to move, plus one bit above
// each column's top stone).
func (p Position) Key() uint64 { return p.cur + p.mask }

// Playable returns the next cell of every column that is not full.
func (p Position) Playable() uint64 { return (p.mask + p.g.bottom) & p.g.board }

// WinCells returns the empty cells (playable now or later) where a stone
// of the side to move would complete k in a row.
func (p Position) WinCells() uint64 { return p.g.winCells(p.cur, p.mask) }

// OppWinCells returns the same cells for the other side.
func (p Position) OppWinCells() uint64 { return p.g.winCells(p.cur^p.mask, p.mask) }

// ColumnMask returns the cells of column col (0-based, as Bits lays them
// out).
func (p Position) ColumnMask(col int) uint64 { return p.g.colMask[col] }

// Moves returns the number of stones on the board.
func (p Position) Moves() int { return p.moves }

// Rows, Cols and K describe the board of the position.
func (p Position) Rows() int { return p.g.rows }

// Cols returns the number of columns.
func (p Position) Cols() int { return p.g.cols }

// K returns the number of stones in a row that wins.
func (p Position) K() int { return p.g.k }

// GameOver reports whether the side that just moved has k in a row, or the
// board is full.
func (p Position) GameOver() bool {
	return p.moves == p.g.cells || p.g.aligned(p.cur^p.mask)
}

// String draws the board, top row first: x the first player, o the second.
func (p Position) String() string {
	g := p.g
	first := p.cur // stones of the first player
	if p.moves%2 == 1 {
		first = p.cur ^ p.mask
	}
	b := make([]byte, 0, g.h*g.cols+g.rows)
	for r := g.rows - 1; r >= 0; r-- {
		for c := 0; c < g.cols; c++ {
			bit := uint64(1) << uint(c*g.h+r)
			switch {
			case first&bit != 0:
				b = append(b, 'x')
			case p.mask&bit != 0:
				b = append(b, 'o')
			default:
				b = append(b, '.')
			}
		}
		b = append(b, '\n')
	}
	return string(b)
}

// canWinNow reports whether the side to move has a winning move.
func (g *geom) canWinNow(cur, mask uint64) bool {
	return g.winCells(cur, mask)&(mask+g.bottom)&g.board != 0
}

// errSequence marks PlaySequence failures.
var errSequence = errors.New("solver: bad move sequence")

// colOf decodes one move character: '1'..'9' are columns 1..9, letters
// 'a'..'z' (either case) columns 10..35. It returns the 0-based column or -1.
func colOf(ch byte) int {
	switch {
	case ch >= '1' && ch <= '9':
		return int(ch - '1')
	case ch >= 'a' && ch <= 'z':
		return int(ch-'a') + 9
	case ch >= 'A' && ch <= 'Z':
		return int(ch-'A') + 9
	}
	return -1
}

// PlaySequence plays seq, 1-based column characters ("4453"; columns
// beyond 9 as letters, a = 10), on p. It returns the number of moves
// played. On error (a bad character, a full or missing column, a move
// after the game was won or the board filled) p is left unchanged and the
// count is the 0-based index of the offending move.
func (s *Solver) PlaySequence(p *Position, seq string) (int, error) {
	if p.g == nil {
		return 0, fmt.Errorf("%w: zero Position", errSequence)
	}
	q := *p
	for i := 0; i < len(seq); i++ {
		col := colOf(seq[i])
		if col < 0 || col >= q.g.cols {
			return i, fmt.Errorf("%w: move %d (%q): no such column (1..%d)", errSequence, i, seq[i], q.g.cols)
		}
		if q.moves > 0 && q.g.aligned(q.cur^q.mask) {
			return i, fmt.Errorf("%w: move %d (%q): the game was already won", errSequence, i, seq[i])
		}
		if !q.CanPlay(col) {
			return i, fmt.Errorf("%w: move %d (%q): column %d is full", errSequence, i, seq[i], col+1)
		}
		q.Play(col)
	}
	*p = q
	return len(seq), nil
}
