package wide

import (
	"fmt"

	"github.com/kinrow/kinrow/engine"
)

// MaxRows is the tallest board a Board holds: one 64-bit word per column.
const MaxRows = 64

// MaxCols is the widest board: the engine's limit.
const MaxCols = 128

// Fits reports whether a Connect-X board of rows x cols with k in a row is
// one a Board holds.
func Fits(rows, cols, k int) bool {
	return rows >= 1 && rows <= MaxRows && cols >= 1 && cols <= MaxCols && k >= 2 && k <= max(rows, cols)
}

// Board is a Connect-X position on one uint64 word per column: bit r of
// column c's word is the cell in row r (0 at the bottom). Besides the stones
// it keeps, updated on every Play and Undo, the cells where each side would
// complete k in a row, the open-window counts of the evaluation (eval.go)
// and two independent Zobrist keys (hash.go). Play and Undo allocate
// nothing. A Board is not safe for concurrent use.
type Board struct {
	rows, cols, k int
	cells         int // rows*cols
	half          int // (cells+1)/2: see scoreAt
	colMask       uint64
	height        []int
	stones        [2][]uint64 // X (first player) and O
	// win[s][c]: cells of column c where a stone of s would make k in a
	// row. Bits of filled cells may stay set; readers mask them out.
	win [2][]uint64
	ply int
	won bool // the last move made k in a row

	key1, key2 uint64
	zob        []zpair // per cell c*rows+r and side: cell*2+side

	windows windows

	hist []undoRec // one per ply
	set  []setBit  // win bits set by the moves of hist, in order
}

// undoRec is what Undo needs to take back one move.
type undoRec struct {
	col   int32
	nset  int32 // entries of Board.set this move pushed
	prevW bool  // Board.won before the move
}

// setBit is one winning cell a move added: its column and bit.
type setBit struct {
	col int32
	bit uint64
}

// NewBoard returns the empty board of rows x cols where k in a row wins.
func NewBoard(rows, cols, k int) (*Board, error) {
	if !Fits(rows, cols, k) {
		return nil, fmt.Errorf("wide: board %dx%d with k=%d: rows must be 1..%d, columns 1..%d, k 2..max(rows, cols)", rows, cols, k, MaxRows, MaxCols)
	}
	b := &Board{rows: rows, cols: cols, k: k, cells: rows * cols}
	b.half = (b.cells + 1) / 2
	b.colMask = ^uint64(0) >> uint(64-rows)
	b.height = make([]int, cols)
	for s := range 2 {
		b.stones[s] = make([]uint64, cols)
		b.win[s] = make([]uint64, cols)
	}
	b.zob = newZobrist(b.cells)
	b.key1, b.key2 = keySeed1, keySeed2
	b.windows = newWindows(rows, cols, k)
	b.hist = make([]undoRec, 0, b.cells)
	b.set = make([]setBit, 0, 8*b.cells)
	return b, nil
}

// Reset empties the board.
func (b *Board) Reset() {
	for b.ply > 0 {
		b.Undo()
	}
}

// Rows returns the number of rows.
func (b *Board) Rows() int { return b.rows }

// Cols returns the number of columns.
func (b *Board) Cols() int { return b.cols }

// K returns the number of stones in a row that wins.
func (b *Board) K() int { return b.k }

// Ply returns the number of stones on the board.
func (b *Board) Ply() int { return b.ply }

// ToMove returns the side to move: 0 for the first player, 1 for the second.
func (b *Board) ToMove() int { return b.ply & 1 }

// Height returns the number of stones in column col.
func (b *Board) Height(col int) int { return b.height[col] }

// Won reports whether the last move made k in a row.
func (b *Board) Won() bool { return b.won }

// Full reports whether every cell is filled.
func (b *Board) Full() bool { return b.ply == b.cells }

// Over reports whether the game is finished: won or full.
func (b *Board) Over() bool { return b.won || b.ply == b.cells }

// CanPlay reports whether column col exists and is not full.
func (b *Board) CanPlay(col int) bool { return col >= 0 && col < b.cols && b.height[col] < b.rows }

// At returns the side (0 or 1) whose stone is at row, col, or -1 if empty.
func (b *Board) At(row, col int) int {
	switch {
	case b.stones[0][col]>>uint(row)&1 != 0:
		return 0
	case b.stones[1][col]>>uint(row)&1 != 0:
		return 1
	}
	return -1
}

// IsWinningCell reports whether the empty cell at row, col completes k in
// a row for side s (0 or 1) when filled by s, whether playable now or not.
func (b *Board) IsWinningCell(s, row, col int) bool {
	return row >= b.height[col] && b.win[s][col]>>uint(row)&1 != 0
}

// IsWinningMove reports whether playing the playable column col makes k
// in a row for the side to move.
func (b *Board) IsWinningMove(col int) bool {
	return b.win[b.ply&1][col]>>uint(b.height[col])&1 != 0
}

// Key returns the position's two independent 64-bit hash keys.
func (b *Board) Key() (uint64, uint64) { return b.key1, b.key2 }

// scoreAt is the score of the side that wins by playing move n+1 (n
// stones on the board before it): floor((cells+1)/2) + 1 minus its stones.
func (b *Board) scoreAt(n int) int { return b.half - n>>1 }

// Play drops a stone of the side to move into column col, which must be
// playable (see CanPlay). It records whether the move won (Won).
func (b *Board) Play(col int) {
	s := b.ply & 1
	r := b.height[col]
	b.stones[s][col] |= 1 << uint(r)
	b.height[col] = r + 1
	z := &b.zob[(col*b.rows+r)*2+s]
	b.key1 ^= z.k1
	b.key2 ^= z.k2
	n0 := len(b.set)
	prev := b.won
	b.won = false
	if b.windows.add(s, col, r) >= b.k-1 { // else no win and no new winning cell
		b.won = b.scan(s, col, r, true) < 0
	}
	b.hist = append(b.hist, undoRec{col: int32(col), nset: int32(len(b.set) - n0), prevW: prev})
	b.ply++
}

// Undo takes back the last move; the board must not be empty.
func (b *Board) Undo() {
	b.ply--
	h := b.hist[len(b.hist)-1]
	b.hist = b.hist[:len(b.hist)-1]
	for i := len(b.set) - int(h.nset); i < len(b.set); i++ {
		e := b.set[i]
		b.win[b.ply&1][e.col] &^= e.bit
	}
	b.set = b.set[:len(b.set)-int(h.nset)]
	b.won = h.prevW
	s, col := b.ply&1, int(h.col)
	r := b.height[col] - 1
	b.height[col] = r
	b.stones[s][col] &^= 1 << uint(r)
	z := &b.zob[(col*b.rows+r)*2+s]
	b.key1 ^= z.k1
	b.key2 ^= z.k2
	b.windows.remove(s, col, r)
}

// LastMove returns the column of the last move, or -1 on an empty board.
func (b *Board) LastMove() int {
	if b.ply == 0 {
		return -1
	}
	return int(b.hist[b.ply-1].col)
}

// isStone reports whether (col, row) is on the board and holds a stone of s.
func (b *Board) isStone(s, col, row int) bool {
	return col >= 0 && col < b.cols && row >= 0 && row < b.rows && b.stones[s][col]>>uint(row)&1 != 0
}

// isEmpty reports whether (col, row) is on the board and empty.
func (b *Board) isEmpty(col, row int) bool {
	return col >= 0 && col < b.cols && row >= b.height[col] && row < b.rows
}

// run counts the stones of s from (col+dc, row+dr) on along (dc, dr), at
// most limit, and returns the count and the first cell past them.
func (b *Board) run(s, col, row, dc, dr, limit int) (n, ec, er int) {
	ec, er = col+dc, row+dr
	for n < limit && b.isStone(s, ec, er) {
		n++
		ec += dc
		er += dr
	}
	return n, ec, er
}

// scan looks at the four lines through (col, row) for side s, as if a
// stone of s stood there (it may or may not be placed yet). It returns -1
// if that stone makes k in a row; otherwise the number of winning cells of
// s it creates, and with commit it adds them to b.win[s] (recorded for
// Undo). A new winning cell lies on a line through (col, row) with the k-2
// other cells stones of s, so it is the first non-stone cell from (col,
// row) in one of the eight directions: at most eight are looked at.
func (b *Board) scan(s, col, row int, commit bool) int {
	total := 0
	for d := range 4 {
		dr, dc := engine.Direction(d)
		v := b.scanLine(s, col, row, dc, dr, commit)
		if v < 0 {
			return -1
		}
		total += v
	}
	return total
}

// scanLine is scan along one direction.
func (b *Board) scanLine(s, col, row, dc, dr int, commit bool) int {
	k := b.k
	a, ac, ar := b.run(s, col, row, dc, dr, k-1)
	m, mc, mr := b.run(s, col, row, -dc, -dr, k-1)
	if a+m+1 >= k {
		return -1
	}
	n := 0
	if b.isEmpty(ac, ar) {
		if a2, _, _ := b.run(s, ac, ar, dc, dr, k-1); a+m+2+a2 >= k {
			n += b.mark(s, ac, ar, commit)
		}
	}
	if b.isEmpty(mc, mr) {
		if m2, _, _ := b.run(s, mc, mr, -dc, -dr, k-1); a+m+2+m2 >= k {
			n += b.mark(s, mc, mr, commit)
		}
	}
	return n
}

// mark counts (and with commit, sets) the winning cell (col, row) of s if
// it is new.
func (b *Board) mark(s, col, row int, commit bool) int {
	bit := uint64(1) << uint(row)
	if b.win[s][col]&bit != 0 {
		return 0
	}
	if commit {
		b.win[s][col] |= bit
		b.set = append(b.set, setBit{col: int32(col), bit: bit})
	}
	return 1
}
