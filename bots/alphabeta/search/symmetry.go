package search

import "github.com/kinrow/kinrow/engine"

// symmetries holds the board's symmetries as cell maps: the 8 of the square
// for a square m,n,k board, the 4 of the rectangle otherwise, and for
// Connect-X only the left-right mirror (gravity breaks the others). The
// table is keyed by the least of the symmetric hashes, so a position and its
// mirror images share one entry.
type symmetries struct {
	n     int       // how many (identity first)
	cell  [][]int32 // cell[k][c]: the image of cell c under symmetry k
	inv   []int     // inv[k]: the symmetry undoing k
	hash  []uint64  // the position's hash under each symmetry
	cols  int
	gravy bool
}

func newSymmetries(r engine.Rules) *symmetries {
	R, C := r.Rows, r.Cols
	var maps []func(row, col int) (int, int)
	var inv []int
	id := func(row, col int) (int, int) { return row, col }
	mirror := func(row, col int) (int, int) { return row, C - 1 - col }
	switch {
	case r.Kind == engine.ConnectX:
		maps, inv = append(maps, id, mirror), []int{0, 1}
	case R == C:
		n := R - 1
		maps = append(maps, id,
			func(row, col int) (int, int) { return col, n - row }, // rotate 90
			func(row, col int) (int, int) { return n - row, n - col },
			func(row, col int) (int, int) { return n - col, row }, // rotate 270
			mirror,
			func(row, col int) (int, int) { return n - row, col },
			func(row, col int) (int, int) { return col, row },
			func(row, col int) (int, int) { return n - col, n - row })
		inv = []int{0, 3, 2, 1, 4, 5, 6, 7}
	default:
		maps = append(maps, id, mirror,
			func(row, col int) (int, int) { return R - 1 - row, col },
			func(row, col int) (int, int) { return R - 1 - row, C - 1 - col })
		inv = []int{0, 1, 2, 3}
	}
	s := &symmetries{n: len(maps), inv: inv, hash: make([]uint64, len(maps)), cols: C, gravy: r.Kind == engine.ConnectX}
	for _, f := range maps {
		m := make([]int32, R*C)
		for row := 0; row < R; row++ {
			for col := 0; col < C; col++ {
				rr, cc := f(row, col)
				m[row*C+col] = int32(rr*C + cc)
			}
		}
		s.cell = append(s.cell, m)
	}
	return s
}

// toggle adds or removes a stone of c on cell in every symmetric hash.
func (s *symmetries) toggle(cell int, c engine.Color) {
	for k := 0; k < s.n; k++ {
		s.hash[k] ^= engine.ZobristKey(int(s.cell[k][cell]), c) ^ engine.SideKey
	}
}

// key returns the least symmetric hash and the symmetry that gives it.
func (s *symmetries) key() (uint64, int) {
	best, bk := s.hash[0], 0
	for k := 1; k < s.n; k++ {
		if s.hash[k] < best {
			best, bk = s.hash[k], k
		}
	}
	return best, bk
}

// move maps a move through symmetry k (a column for Connect-X, a cell for m,n,k).
func (s *symmetries) move(m engine.Move, k int) engine.Move {
	if m < 0 {
		return m
	}
	if s.gravy {
		return engine.Move(s.cell[k][int(m)] % int32(s.cols))
	}
	return engine.Move(s.cell[k][m])
}
