package board

import (
	"github.com/kinrow/kinrow/bots/gomoku/pattern"
	"github.com/kinrow/kinrow/engine"
)

// Cell contents.
const (
	empty = 0
	black = 1 // engine.X, bit 0 of a key slot
	white = 2 // engine.O, bit 1
	wall  = pattern.Wall
)

const pad = pattern.Half

// dirs are the four line directions as (drow, dcol).
var dirs = [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

// Board is the incremental board. Cells are indices into a padded grid;
// Index and Move convert from and to engine moves.
type Board struct {
	rows, cols, stride int
	renju              bool
	table              *pattern.Table
	classes            [2]*pattern.Classes
	step               [4]int

	cell  []uint8     // empty, black, white or wall
	key   [][4]uint32 // line keys per direction
	pat   [][4]uint8  // packed patterns per direction (black low, white high)
	p4    [2][]pattern.Pattern4
	score [2][]int32
	near  []uint8 // stones within two cells (Chebyshev)
	total [2]int64

	zob  [2][]uint64
	hash uint64
	hist []int
	// Board cells in scan order (real cells only).
	real []int
}

// New returns the empty board of m,n,k rules (K = 5).
func New(r engine.Rules) *Board {
	b := &Board{rows: r.Rows, cols: r.Cols, stride: r.Cols + 2*pad, renju: r.Line == engine.Renju, table: pattern.For(r.Line)}
	n := (r.Rows + 2*pad) * b.stride
	for d, v := range dirs {
		b.step[d] = v[0]*b.stride + v[1]
	}
	b.classes = [2]*pattern.Classes{pattern.NewClasses(b.renju), pattern.NewClasses(false)}
	b.cell = make([]uint8, n)
	b.key = make([][4]uint32, n)
	b.pat = make([][4]uint8, n)
	for c := 0; c < 2; c++ {
		b.p4[c] = make([]pattern.Pattern4, n)
		b.score[c] = make([]int32, n)
		b.zob[c] = make([]uint64, n)
	}
	b.near = make([]uint8, n)
	b.hist = make([]int, 0, r.Rows*r.Cols)
	for i := range b.cell {
		b.cell[i] = wall
	}
	for row := 0; row < r.Rows; row++ {
		for col := 0; col < r.Cols; col++ {
			p := b.index(row, col)
			b.cell[p] = empty
			b.real = append(b.real, p)
		}
	}
	seed := uint64(0x9e3779b97f4a7c15)
	for c := 0; c < 2; c++ {
		for i := range b.zob[c] {
			seed += 0x9e3779b97f4a7c15
			z := seed
			z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
			z = (z ^ z>>27) * 0x94d049bb133111eb
			b.zob[c][i] = z ^ z>>31
		}
	}
	// Keys of every real cell from its neighbours (walls included).
	for _, p := range b.real {
		for d := 0; d < 4; d++ {
			var k uint32
			for off := -pad; off <= pad; off++ {
				if off == 0 {
					continue
				}
				q := p + off*b.step[d]
				v := uint32(wall)
				if q >= 0 && q < n {
					v = uint32(b.cell[q])
				}
				k |= v << (2 * pattern.KeySlot(off))
			}
			b.key[p][d] = k
		}
	}
	for _, p := range b.real {
		b.refresh(p)
	}
	return b
}

func (b *Board) index(row, col int) int { return (row+pad)*b.stride + col + pad }

// Index is the board cell of an engine move (a cell index row*cols+col).
func (b *Board) Index(m engine.Move) int { return b.index(int(m)/b.cols, int(m)%b.cols) }

// Move is the engine move of a board cell.
func (b *Board) Move(p int) engine.Move {
	return engine.Move((p/b.stride-pad)*b.cols + p%b.stride - pad)
}

// Cells is the list of the board's real cells (do not modify).
func (b *Board) Cells() []int { return b.real }

// Ply is the number of stones.
func (b *Board) Ply() int { return len(b.hist) }

// Full reports whether no empty cell is left.
func (b *Board) Full() bool { return len(b.hist) == len(b.real) }

// ToMove is the colour to move (engine.X first).
func (b *Board) ToMove() engine.Color { return engine.Color(len(b.hist) & 1) }

// Hash is the Zobrist hash of the stones.
func (b *Board) Hash() uint64 { return b.hash }

// Empty reports whether cell p is empty.
func (b *Board) Empty(p int) bool { return b.cell[p] == empty }

// Near reports whether a stone lies within two cells of p.
func (b *Board) Near(p int) bool { return b.near[p] > 0 }

// P4 is the threat class of colour c at empty cell p.
func (b *Board) P4(c engine.Color, p int) pattern.Pattern4 { return b.p4[c][p] }

// Score is the value of cell p for colour c.
func (b *Board) Score(c engine.Color, p int) int32 { return b.score[c][p] }

// Pattern is colour c's pattern on cell p along direction d.
func (b *Board) Pattern(c engine.Color, p, d int) pattern.Pattern {
	return pattern.Pattern(b.pat[p][d] >> (4 * uint(c)) & 15)
}

// Step is the index offset of direction d (0..3).
func (b *Board) Step(d int) int { return b.step[d] }

// Size is the number of cells of the padded grid: every board cell index
// is below it.
func (b *Board) Size() int { return len(b.cell) }

// History is the i-th cell played (from 0).
func (b *Board) History(i int) int { return b.hist[i] }

// LastMove is the last cell played, or -1.
func (b *Board) LastMove() int {
	if len(b.hist) == 0 {
		return -1
	}
	return b.hist[len(b.hist)-1]
}

// Play puts the side to move's stone on empty cell p.
func (b *Board) Play(p int) {
	c := uint32(len(b.hist)&1) + 1
	b.hist = append(b.hist, p)
	b.hash ^= b.zob[c-1][p]
	b.set(p, c)
}

// PlayAs puts a stone of colour c on empty cell p whatever the turn (the
// threat searches play the attacker twice in a row after a pass). Undo
// takes it back like any other.
func (b *Board) PlayAs(c engine.Color, p int) {
	b.hist = append(b.hist, p)
	b.hash ^= b.zob[c][p]
	b.set(p, uint32(c)+1)
}

// Undo takes back the last stone.
func (b *Board) Undo() {
	p := b.hist[len(b.hist)-1]
	b.hist = b.hist[:len(b.hist)-1]
	c := b.cell[p]
	b.hash ^= b.zob[c-1][p]
	b.set(p, 0)
}

// set changes cell p to v (a stone or empty) and updates everything
// that depends on it.
func (b *Board) set(p int, v uint32) {
	old := uint32(b.cell[p])
	if old == empty {
		b.total[0] -= int64(b.score[0][p])
		b.total[1] -= int64(b.score[1][p])
	}
	b.cell[p] = uint8(v)
	for d := 0; d < 4; d++ {
		s := b.step[d]
		for off := -pad; off <= pad; off++ {
			if off == 0 {
				continue
			}
			q := p + off*s
			if q < 0 || q >= len(b.cell) || b.cell[q] == wall {
				continue
			}
			shift := 2 * uint(pattern.KeySlot(-off))
			b.key[q][d] = b.key[q][d]&^(3<<shift) | v<<shift
			if b.cell[q] == empty {
				// A stone four away often leaves the line's pattern as
				// it was: then the cell's classes stand.
				if both := b.table.Both(b.key[q][d]); both != b.pat[q][d] {
					b.pat[q][d] = both
					b.reclass(q)
				}
			}
		}
	}
	delta := 1
	if v == empty {
		delta = -1
		for d := 0; d < 4; d++ {
			b.pat[p][d] = b.table.Both(b.key[p][d])
		}
		b.reclass(p)
	} else {
		b.score[0][p], b.score[1][p] = 0, 0
		b.p4[0][p], b.p4[1][p] = pattern.None, pattern.None
	}
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			q := p + dr*b.stride + dc
			if q >= 0 && q < len(b.near) {
				b.near[q] = uint8(int(b.near[q]) + delta)
			}
		}
	}
}

// reclass recomputes the classes and scores of empty cell q from its
// patterns.
func (b *Board) reclass(q int) {
	pt := &b.pat[q]
	for c := uint(0); c < 2; c++ {
		i := pattern.Index(pattern.Pattern(pt[0]>>(4*c)&15), pattern.Pattern(pt[1]>>(4*c)&15),
			pattern.Pattern(pt[2]>>(4*c)&15), pattern.Pattern(pt[3]>>(4*c)&15))
		p4, s := b.classes[c].At(i)
		b.p4[c][q] = p4
		b.total[c] += int64(s - b.score[c][q])
		b.score[c][q] = s
	}
}

// refresh recomputes the patterns, classes and scores of empty cell q.
func (b *Board) refresh(q int) {
	var ps [2][4]pattern.Pattern
	var sum [2]int32
	for d := 0; d < 4; d++ {
		both := b.table.Both(b.key[q][d])
		b.pat[q][d] = both
		for c := 0; c < 2; c++ {
			x := pattern.Pattern(both >> (4 * c) & 15)
			ps[c][d] = x
			sum[c] += pattern.LineScore[x]
		}
	}
	for c := 0; c < 2; c++ {
		p4 := pattern.Combine(ps[c], b.renju && c == 0)
		b.p4[c][q] = p4
		s := sum[c] + pattern.ClassScore[p4]
		if p4 == pattern.Forbidden {
			s = 0
		}
		b.total[c] += int64(s - b.score[c][q])
		b.score[c][q] = s
	}
}

// Eval is the static evaluation for the side to move: its cells' total
// less the opponent's, the mover's counting a little more (the tempo).
func (b *Board) Eval() int {
	me := len(b.hist) & 1
	v := (b.total[me]*6 - b.total[1-me]*5) / 40
	return int(v)
}

// Candidates appends the empty cells within two of a stone (the centre
// on an empty board).
func (b *Board) Candidates(dst []int) []int {
	if len(b.hist) == 0 {
		return append(dst, b.index(b.rows/2, b.cols/2))
	}
	for _, p := range b.real {
		if b.cell[p] == empty && b.near[p] > 0 {
			dst = append(dst, p)
		}
	}
	return dst
}

// FiveCells appends colour c's winning cells on the lines through p,
// within four of it.
func (b *Board) FiveCells(c engine.Color, p int, dst []int) []int {
	for d := 0; d < 4; d++ {
		s := b.step[d]
		for off := -4; off <= 4; off++ {
			q := p + off*s
			if off == 0 || q < 0 || q >= len(b.cell) || b.cell[q] != empty {
				continue
			}
			if b.p4[c][q] == pattern.Five {
				dup := false
				for _, x := range dst {
					dup = dup || x == q
				}
				if !dup {
					dst = append(dst, q)
				}
			}
		}
	}
	return dst
}
