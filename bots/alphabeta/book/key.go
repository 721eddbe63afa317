package book

import (
	"fmt"
)

// Geometry is the board of a book: rows x cols, k in a row wins. It must
// fit package solver's bitboard: (rows+1)*cols <= 64.
type Geometry struct {
	Rows, Cols, K int
}

// Check reports whether g is a board the book (and package solver) holds.
func (g Geometry) Check() error {
	if g.Rows < 1 || g.Cols < 1 || g.K < 2 || g.K > max(g.Rows, g.Cols) {
		return fmt.Errorf("book: board %dx%d with k=%d: want rows and cols >= 1 and 2 <= k <= max(rows, cols)", g.Rows, g.Cols, g.K)
	}
	if (g.Rows+1)*g.Cols > 64 {
		return fmt.Errorf("book: board %dx%d does not fit a 64-bit bitboard: want (rows+1)*cols <= 64", g.Rows, g.Cols)
	}
	return nil
}

// Cells is the number of cells of the board.
func (g Geometry) Cells() int { return g.Rows * g.Cols }

// WinScore is the score of a side that wins with the move it plays when
// stones stones are on the board before it.
func (g Geometry) WinScore(stones int) int {
	return (g.Cells()+1)/2 + 1 - (stones/2 + 1)
}

// Board is a position and its mirror image as bitboards, enough to key it
// and to play moves; it does not detect wins (package solver does).
type Board struct {
	g               Geometry
	cur, mask       uint64 // side to move's stones, every stone
	mirCur, mirMask uint64 // the same, columns mirrored
	moves           int
	heights         [64]uint8
}

// NewBoard returns the empty board of g, which must pass Check.
func NewBoard(g Geometry) Board { return Board{g: g} }

// Moves returns the number of stones on the board.
func (b Board) Moves() int { return b.moves }

// CanPlay reports whether column col (0-based) exists and is not full.
func (b Board) CanPlay(col int) bool {
	return col >= 0 && col < b.g.Cols && int(b.heights[col]) < b.g.Rows
}

// Play drops a stone of the side to move into col, which must be playable.
func (b *Board) Play(col int) {
	h := b.g.Rows + 1
	bit := uint64(1) << uint(col*h+int(b.heights[col]))
	mbit := uint64(1) << uint((b.g.Cols-1-col)*h+int(b.heights[col]))
	b.cur ^= b.mask
	b.mask |= bit
	b.mirCur ^= b.mirMask
	b.mirMask |= mbit
	b.heights[col]++
	b.moves++
}

// Key returns the position's key (unfolded).
func (b Board) Key() uint64 { return b.cur + b.mask }

// Fold returns the book's key of the position: the smaller of its key and
// its mirror image's.
func (b Board) Fold() uint64 { return min(b.cur+b.mask, b.mirCur+b.mirMask) }

// Play plays cols (0-based columns) on the empty board of g and returns the
// board, or an error naming the first move that is not playable.
func Play(g Geometry, cols []int) (Board, error) {
	b := NewBoard(g)
	for i, c := range cols {
		if !b.CanPlay(c) {
			return Board{}, fmt.Errorf("book: move %d: column %d is not playable (1..%d, not full)", i+1, c+1, g.Cols)
		}
		b.Play(c)
	}
	return b, nil
}
