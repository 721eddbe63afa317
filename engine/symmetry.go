package engine

// MaxSymmetries is the largest number of board symmetries (the square's 8).
const MaxSymmetries = 8

// Symmetries are the symmetries of a board under its rules, as cell maps:
// the 8 of the dihedral group on a square m,n,k board, the 4 mirrors of a
// rectangle, the left-right mirror for Connect-X (gravity breaks the
// others). Every line rule is symmetric under them. Symmetry 0 is the
// identity, and the first n of the fixed order are the group of a board
// with n symmetries: identity, left-right mirror, top-bottom mirror, half
// turn, then (square boards) the transpose, the quarter turns and the
// anti-transpose.
type Symmetries struct {
	n     int
	ncell int
	nmove int
	cells []int32 // cells[t*ncell+c]: the image of cell c under t
	moves []int32 // moves[t*nmove+m]: the image of move m under t
	inv   [MaxSymmetries]uint8
}

// Symmetries returns the board's symmetries (see type Symmetries).
func (r Rules) Symmetries() *Symmetries {
	rows, cols := r.Rows, r.Cols
	g := r.Game()
	n := g.SymmetryCount(rows, cols)
	s := &Symmetries{n: n, ncell: rows * cols, nmove: g.MoveRange(rows, cols)}
	s.cells = make([]int32, n*s.ncell)
	s.moves = make([]int32, n*s.nmove)
	for t := 0; t < n; t++ {
		for c := 0; c < s.ncell; c++ {
			r0, c0 := c/cols, c%cols
			var r1, c1 int
			switch t {
			case 0:
				r1, c1 = r0, c0
			case 1:
				r1, c1 = r0, cols-1-c0
			case 2:
				r1, c1 = rows-1-r0, c0
			case 3:
				r1, c1 = rows-1-r0, cols-1-c0
			case 4:
				r1, c1 = c0, r0
			case 5:
				r1, c1 = c0, rows-1-r0
			case 6:
				r1, c1 = rows-1-c0, r0
			default:
				r1, c1 = rows-1-c0, rows-1-r0
			}
			s.cells[t*s.ncell+c] = int32(r1*cols + c1)
		}
		for m := 0; m < s.nmove; m++ {
			img := s.cells[t*s.ncell+m] // under gravity: the column's bottom cell
			if g.Gravity() {
				img %= int32(cols) // and back to its column
			}
			s.moves[t*s.nmove+m] = img
		}
	}
	for t := 0; t < n; t++ {
		for u := 0; u < n; u++ {
			if s.inverse(t, u) {
				s.inv[t] = uint8(u)
				break
			}
		}
	}
	return s
}

func (s *Symmetries) inverse(t, u int) bool {
	for c := 0; c < s.ncell; c++ {
		if s.Cell(u, s.Cell(t, c)) != c {
			return false
		}
	}
	return true
}

// Len is the number of symmetries (identity included).
func (s *Symmetries) Len() int { return s.n }

// Cell returns the image of cell c under symmetry t.
func (s *Symmetries) Cell(t, c int) int { return int(s.cells[t*s.ncell+c]) }

// Move returns the image of move m under symmetry t (a column for
// Connect-X, a cell for m,n,k); a negative m (NoMove) is returned as is.
func (s *Symmetries) Move(t int, m Move) Move {
	if m < 0 {
		return m
	}
	return Move(s.moves[t*s.nmove+int(m)])
}

// Inverse returns the symmetry that undoes t.
func (s *Symmetries) Inverse(t int) int { return int(s.inv[t]) }

// Hashes returns the Zobrist hashes of p under every symmetry: what
// SymHash starts from.
func (s *Symmetries) Hashes(p *Position) SymHash {
	h := SymHash{s: s}
	for _, cell := range p.history {
		c := p.cells[cell]
		for t := 0; t < s.n; t++ {
			h.h[t] ^= ZobristKey(s.Cell(t, int(cell)), c)
		}
	}
	if p.ToMove() != X {
		for t := 0; t < s.n; t++ {
			h.h[t] ^= SideKey
		}
	}
	return h
}

// SymHash is a position's Zobrist hash under each symmetry of its board,
// updated stone by stone; its Least is the key that a position and its
// mirror images share. The zero value is not usable: get one from
// Symmetries.Hashes. It allocates nothing.
type SymHash struct {
	s *Symmetries
	h [MaxSymmetries]uint64
}

// Toggle puts a stone of colour c on cell, or takes it back, and switches
// the side to move, in every symmetric hash.
func (h *SymHash) Toggle(cell int, c Color) {
	for t := 0; t < h.s.n; t++ {
		h.h[t] ^= ZobristKey(int(h.s.cells[t*h.s.ncell+cell]), c) ^ SideKey
	}
}

// Hash returns the hash under symmetry t (t = 0: the position's own Hash).
func (h *SymHash) Hash(t int) uint64 { return h.h[t] }

// Least returns the least of the symmetric hashes and the symmetry giving
// it (the lowest such symmetry on ties): a key shared by a position and its
// images.
func (h *SymHash) Least() (key uint64, t int) {
	key = h.h[0]
	for u := 1; u < h.s.n; u++ {
		if h.h[u] < key {
			key, t = h.h[u], u
		}
	}
	return key, t
}
