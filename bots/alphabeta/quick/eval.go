package quick

import "math/bits"

// Threat weights: an empty cell that would complete a side's row, on a row
// whose parity favours that side (the first player's odd rows, counted
// from 1 at the bottom, the second player's even rows), and on another.
const (
	goodThreat  = 24
	otherThreat = 8
)

// evaluator scores positions at the depth limit. Bit layout as the
// solver's (package solver, Position.Bits): column c holds bits
// c*(rows+1) .. c*(rows+1)+rows-1, bottom first.
//
//	rows 6, cols 7, bit numbers:     windows through each cell (k = 4):
//	 5 12 19 26 33 40 47             3 4  5  7  5 4 3
//	 4 11 18 25 32 39 46             4 6  8 10  8 6 4
//	 3 10 17 24 31 38 45             5 8 11 13 11 8 5
//	 2  9 16 23 30 37 44             5 8 11 13 11 8 5
//	 1  8 15 22 29 36 43             4 6  8 10  8 6 4
//	 0  7 14 21 28 35 42             3 4  5  7  5 4 3
type evaluator struct {
	// planes[b] holds the cells whose window count has bit b set: the
	// windows through a set of stones are sum(popcount(s & planes[b]) << b).
	planes []uint64
	// firstRows: the cells of the rows that favour the first player's
	// threats (rows 1, 3, 5 counted from 1); the others favour the second.
	firstRows uint64
	// cell holds the windows through each cell (by bit), for move
	// ordering.
	cell [64]int
}

func newEvaluator(rows, cols, k int) evaluator {
	h := rows + 1
	count := make([]int, 64)
	top := 0
	in := func(r, c int) bool { return r >= 0 && r < rows && c >= 0 && c < cols }
	for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				if !in(r+(k-1)*d[0], c+(k-1)*d[1]) {
					continue
				}
				for i := 0; i < k; i++ {
					b := (c+i*d[1])*h + r + i*d[0]
					count[b]++
					top = max(top, count[b])
				}
			}
		}
	}
	e := evaluator{planes: make([]uint64, bits.Len(uint(top)))}
	copy(e.cell[:], count)
	for b, n := range count {
		for i := range e.planes {
			if n>>i&1 != 0 {
				e.planes[i] |= 1 << uint(b)
			}
		}
	}
	for c := 0; c < cols; c++ {
		for r := 0; r < rows; r += 2 {
			e.firstRows |= 1 << uint(c*h+r)
		}
	}
	return e
}

// windows returns the number of k-in-a-row windows through the stones s
// (a window counted once for each of its stones).
func (e *evaluator) windows(s uint64) int {
	n := 0
	for i, p := range e.planes {
		n += bits.OnesCount64(s&p) << uint(i)
	}
	return n
}

// threats scores the threats t of the side whose good rows are good.
func threats(t, good uint64) int {
	return goodThreat*bits.OnesCount64(t&good) + otherThreat*bits.OnesCount64(t&^good)
}

// eval scores a position for the side to move: cur its stones, opp the
// other side's, ownWin and oppWin their threats, first whether the side
// to move is the first player.
func (e *evaluator) eval(cur, opp, ownWin, oppWin uint64, first bool) int {
	mine, theirs := e.firstRows, ^e.firstRows
	if !first {
		mine, theirs = theirs, mine
	}
	return e.windows(cur) - e.windows(opp) + threats(ownWin, mine) - threats(oppWin, theirs)
}
