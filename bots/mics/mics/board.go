package mics

import (
	"math/rand/v2"

	"github.com/kinrow/kinrow/engine"
)

// The four line directions are the engine's (engine.Direction): horizontal,
// vertical, diagonal, anti-diagonal. A window of direction d starting at
// cell s covers s, s+step[d], …, s+(K-1)·step[d].
const ndirs = 4

// Board is a k-in-a-row board for the search: the stones, the free cells in
// an array with an index per cell, and for every K-window of the four
// directions the stones of each side in it, with the per-cell sums the MICS
// heuristic reads kept up to date as stones are marked and unmarked.
//
// The line rule is the board's own: under exact (and for black in renju)
// only a line of exactly K wins, so a window counts for such a side only
// while neither of the two cells flanking it (just before its first cell,
// just after its last) holds the side's stone — filling it would make an
// overline, which wins nothing. Winner, CanWin, the classes and the
// evaluation all follow from that; renju's forbidden moves for black are not
// the board's to judge (the Searcher asks the engine).
//
// Mark and Unmark are O(1) on the free set (the marked cell is swapped with
// the last free cell and swapped back on undo) and update the counts of the
// at most 4K windows through the cell in O(K); each window whose value for a
// side changes also updates its K cells' heuristic sums, so a move costs
// O(K²) in all and a cell's MICS value is then read in O(1). Nothing
// allocates after NewBoard.
//
// Cells are numbered row*Cols+col with row 0 at the bottom, as in engine.
// Stones alternate, X first, as in engine.Position.
type Board struct {
	rules   engine.Rules
	rows    int
	cols    int
	k       int
	n       int // cells
	gravity bool

	stone  []int8  // per cell: -1 empty, 0 X, 1 O
	height []int32 // Connect-X: stones in each column

	// free[:nfree] are the free cells in any order; free[nfree:] the marked
	// ones, the last marked first. index[c] is where free cell c sits in free;
	// for a marked cell, the position it was swapped from (where Unmark puts
	// it back).
	free  []int32
	index []int32
	nfree int

	// win holds, per window id d*n+start, X's stones in the low byte and
	// O's in the high byte.
	win   []uint16
	step  [4]int
	first [4][]int32 // per cell: id of the lowest window through it in direction d
	nwin  [4][]uint8 // per cell: number of windows through it in direction d
	total int        // number of windows on the board

	// key[s][c] is the ranking key of cell c for side s (heuristic.go): its
	// criticality shifted left by jitterBits, with jitter[c] in the low bits.
	// thr[c] holds X's threat counts in its low 32 bits and O's in the high
	// 32: the open windows through c missing one stone (counted in units of
	// 1<<16) and missing two (units of 1, only when K-2 ≥ 1).
	key    [2][]int64
	thr    []int64
	hot    []bool  // whether thr may raise the cell's class (see isHot)
	centre []int64 // centrality bonus, below one stone's worth
	jitter []uint8 // seeded tie-break between cells of equal value

	eval  [2]int64 // per side: sum of the weights of the windows open for it
	open1 [2]int32 // per side: open windows missing one stone
	full  [2]int32 // per side: complete windows

	t weights

	// The line rule. exact[s]: only exactly K wins for side s; variant:
	// either side's, which takes the general window update (vchange).
	// flank holds, per window id, the stones of X (low byte) and of O
	// (high byte) on its two flanking cells; flanked[d][0][c] is the id of
	// the window of direction d whose first cell follows cell c,
	// flanked[d][1][c] the one whose last cell precedes c (-1: none).
	exact   [2]bool
	variant bool
	flank   []uint16
	flanked [4][2][]int32

	// Scratch for Load.
	moves []engine.Move
	cells []int32
	hs    []int32
}

// NewBoard returns the empty board of r, which must be valid (see
// engine.Rules.Validate) and have K ≤ 255.
func NewBoard(r engine.Rules) *Board {
	n := r.Cells()
	b := &Board{
		rules: r, rows: r.Rows, cols: r.Cols, k: r.K, n: n,
		gravity: r.Gravity(),
		stone:   make([]int8, n),
		free:    make([]int32, n),
		index:   make([]int32, n),
		win:     make([]uint16, 4*n),
		thr:     make([]int64, n),
		hot:     make([]bool, n),
		jitter:  make([]uint8, n),
		moves:   make([]engine.Move, 0, n),
		cells:   make([]int32, 0, n),
	}
	if b.gravity {
		b.height = make([]int32, r.Cols)
		b.hs = make([]int32, r.Cols)
	}
	b.key[0], b.key[1] = make([]int64, n), make([]int64, n)
	b.t = newWeights(r.K)
	for s := range b.exact {
		b.exact[s] = r.Line.ExactFor(engine.Color(s))
		b.variant = b.variant || b.exact[s]
	}
	b.windows()
	// Centrality: g[0]/2 at the centre down to 0 at the farthest corner.
	b.centre = make([]int64, n)
	far := (r.Rows - 1) + (r.Cols - 1) + 1
	for cell := range b.centre {
		row, col := cell/r.Cols, cell%r.Cols
		dist := abs(2*row-(r.Rows-1)) + abs(2*col-(r.Cols-1))
		b.centre[cell] = b.t.g[0] / 2 * int64(far-dist) / int64(far)
	}
	b.SetSeed(0)
	b.Reset()
	return b
}

// windows computes, for each cell and direction, the windows through it:
// window i (0 ≤ i < K) through cell (r, c) starts at (r-i·dr, c-i·dc); it
// exists when both its ends are on the board.
func (b *Board) windows() {
	k := b.k
	for d := range ndirs {
		dr, dc := engine.Direction(d)
		b.step[d] = dr*b.cols + dc
		b.first[d] = make([]int32, b.n)
		b.nwin[d] = make([]uint8, b.n)
		for cell := 0; cell < b.n; cell++ {
			lo, hi := engine.WindowSpan(b.rows, b.cols, k, cell/b.cols, cell%b.cols, d)
			if lo > hi {
				continue
			}
			// The lowest start is the one of the largest i.
			b.first[d][cell] = int32(d*b.n + cell - hi*b.step[d])
			b.nwin[d][cell] = uint8(hi - lo + 1)
			b.total += hi - lo + 1
		}
	}
	b.total /= k
	if b.variant {
		b.flank = make([]uint16, 4*b.n)
		for d := range ndirs {
			dr, dc := engine.Direction(d)
			for j, t := range [2]int{1, -k} { // the start of the window after, before
				f := make([]int32, b.n)
				for cell := range f {
					f[cell] = -1
					r, c := cell/b.cols+t*dr, cell%b.cols+t*dc
					if engine.WindowFits(b.rows, b.cols, k, r, c, d) {
						f[cell] = int32(d*b.n + r*b.cols + c)
					}
				}
				b.flanked[d][j] = f
			}
		}
	}
}

// Reset empties the board.
func (b *Board) Reset() {
	for i := range b.stone {
		b.stone[i] = -1
		b.free[i] = int32(i)
		b.index[i] = int32(i)
	}
	b.nfree = b.n
	clear(b.win)
	clear(b.flank)
	clear(b.height)
	g0, t0 := b.t.g[0], int64(b.t.tc[0])
	for cell := 0; cell < b.n; cell++ {
		w := int64(0)
		for d := range ndirs {
			w += int64(b.nwin[d][cell])
		}
		k := ((ownMult+1)*w*g0+b.centre[cell])<<jitterBits | int64(b.jitter[cell])
		b.key[0][cell], b.key[1][cell] = k, k
		b.thr[cell] = w*t0 | w*t0<<32
		b.hot[cell] = isHot(b.thr[cell])
	}
	for s := 0; s < 2; s++ {
		b.eval[s] = int64(b.total) * b.t.w[0]
		b.open1[s], b.full[s] = 0, 0
	}
}

// SetSeed draws the tie-break between cells of equal value from seed (the
// board starts with seed 0). It may be called at any time.
func (b *Board) SetSeed(seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6d696373))
	for c := range b.jitter {
		b.jitter[c] = uint8(rng.IntN(1 << jitterBits))
		for s := 0; s < 2; s++ {
			b.key[s][c] = b.key[s][c]&^(1<<jitterBits-1) | int64(b.jitter[c])
		}
	}
}

// Rules returns the rules of the board.
func (b *Board) Rules() engine.Rules { return b.rules }

// Ply returns the number of stones on the board.
func (b *Board) Ply() int { return b.n - b.nfree }

// ToMove returns the side whose stone Mark places next.
func (b *Board) ToMove() engine.Color { return engine.Color((b.n - b.nfree) & 1) }

// At returns the content of a cell.
func (b *Board) At(cell int) engine.Color { return engine.Color(b.stone[cell]) }

// Free returns the free cells, in no particular order. The slice is the
// board's own: read it, do not keep it across Mark or Unmark.
func (b *Board) Free() []int32 { return b.free[:b.nfree] }

// CellAt returns the cell of the ply-th stone (0 is the first).
func (b *Board) CellAt(ply int) int { return int(b.free[b.n-1-ply]) }

// Playable returns the cell a stone dropped in a Connect-X column would
// fill, or -1 if the column is full.
func (b *Board) Playable(col int) int {
	h := int(b.height[col])
	if h >= b.rows {
		return -1
	}
	return h*b.cols + col
}

// Window returns the stones of X and O in the window of direction d (0
// horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal) starting at cell
// start, i.e. covering start, start+step, … for K cells.
func (b *Board) Window(d, start int) (x, o int) {
	v := b.win[d*b.n+start]
	return int(v & 0xff), int(v >> 8)
}

// Winner returns the side with a complete window, or engine.Empty.
func (b *Board) Winner() engine.Color {
	switch {
	case b.full[0] > 0:
		return engine.X
	case b.full[1] > 0:
		return engine.O
	}
	return engine.Empty
}

// Mark places a stone of the side to move on a free cell (on Connect-X, the
// playable cell of its column) and reports whether it completes a window.
// It does not check the cell.
func (b *Board) Mark(cell int) bool {
	s := (b.n - b.nfree) & 1
	// Swap the cell with the last free one; remember where it came from.
	i, last := b.index[cell], int32(b.nfree-1)
	y := b.free[last]
	b.free[i], b.index[y] = y, i
	b.free[last], b.index[cell] = int32(cell), i
	b.nfree--
	b.stone[cell] = int8(s)
	if b.gravity {
		b.height[cell%b.cols]++
	}
	if b.variant {
		b.vmark(cell, s, 1)
		b.touch(cell, 1)
		return b.full[s] > 0
	}
	for d := 0; d < 4; d++ {
		cnt := int(b.nwin[d][cell])
		if cnt == 0 {
			continue
		}
		st, id, base := b.step[d], int(b.first[d][cell]), d*b.n
		for ; cnt > 0; cnt-- {
			b.add(id, id-base, st, s)
			id += st
		}
	}
	b.touch(cell, 1)
	return b.full[s] > 0
}

// Unmark takes back the last stone marked. The board must not be empty.
func (b *Board) Unmark() {
	cell := b.free[b.nfree]
	s := (b.n - b.nfree - 1) & 1
	// Swap back: the cell returns to index[cell], the free cell there to the
	// end of the free part.
	i := b.index[cell]
	y := b.free[i]
	b.free[i], b.index[cell] = cell, i
	b.free[b.nfree], b.index[y] = y, int32(b.nfree)
	b.nfree++
	b.stone[cell] = -1
	if b.gravity {
		b.height[int(cell)%b.cols]--
	}
	if b.variant {
		b.vmark(int(cell), s, -1)
		b.touch(int(cell), -1)
		return
	}
	for d := 0; d < 4; d++ {
		cnt := int(b.nwin[d][cell])
		if cnt == 0 {
			continue
		}
		st, id, base := b.step[d], int(b.first[d][cell]), d*b.n
		for ; cnt > 0; cnt-- {
			b.remove(id, id-base, st, s)
			id += st
		}
	}
	b.touch(int(cell), -1)
}

// add counts a stone of side s in window id (starting at cell start, with
// cell step st) and updates what the change means for both sides.
func (b *Board) add(id, start, st, s int) {
	v := b.win[id]
	sh := uint(8 * s)
	a, o := int(v>>sh&0xff), int(v>>(8-sh)&0xff)
	b.win[id] = v + 1<<sh
	t := &b.t
	switch {
	case o == 0:
		b.eval[s] += t.dw[a]
		if a+1 == b.k-1 {
			b.open1[s]++
		} else if a+1 == b.k {
			b.open1[s]--
			b.full[s]++
		}
		if a == 0 {
			// The window was open for the opponent too, with none of its
			// stones: it is dead for it now.
			b.eval[s^1] -= t.w[0]
			b.cells2(start, st, s, t.dg[0], t.dt[0], -t.g[0], -t.tc[0])
		} else {
			b.cells1(start, st, s, t.dg[a], t.dt[a])
		}
	case a == 0:
		// The window was open for the opponent only: it dies.
		b.eval[s^1] -= t.w[o]
		if o == b.k-1 {
			b.open1[s^1]--
		}
		b.cells1(start, st, s^1, -t.g[o], -t.tc[o])
	}
}

// vmark adds (delta 1) or takes back (-1) a stone of side s on cell under
// a line rule where only exactly K wins for a side: the windows through the
// cell count the stone, the (at most two per direction) windows it flanks
// count it on their flank, and each window's change goes through vchange.
func (b *Board) vmark(cell, s, delta int) {
	unit := uint16(1) << (8 * s)
	for d := 0; d < 4; d++ {
		st, base := b.step[d], d*b.n
		id := int(b.first[d][cell])
		for cnt := int(b.nwin[d][cell]); cnt > 0; cnt-- {
			in0, f := b.win[id], b.flank[id]
			in1 := in0 + unit
			if delta < 0 {
				in1 = in0 - unit
			}
			b.win[id] = in1
			b.vchange(id-base, st, in0, f, in1, f)
			id += st
		}
		for j := range 2 {
			id := int(b.flanked[d][j][cell])
			if id < 0 {
				continue
			}
			f0 := b.flank[id]
			f1 := f0 + unit
			if delta < 0 {
				f1 = f0 - unit
			}
			b.flank[id] = f1
			if b.exact[s] {
				// Only s's view of the window can change, and only when
				// the flank goes from none of s's stones to one or back.
				b.vflank(id-base, st, s, b.win[id], f0, f1)
			}
		}
	}
}

// open returns the stones of side s in a window holding in (X's stones in
// the low byte, O's in the high byte) with flank on its flanking cells, and
// whether the window is still open for s: no opponent stone in it and, when
// only exactly K wins for s, none of s's stones on its flanks.
func (b *Board) open(s int, in, flank uint16) (int, bool) {
	sh := uint(8 * s)
	if in>>(8-sh)&0xff != 0 || b.exact[s] && flank>>sh&0xff != 0 {
		return 0, false
	}
	return int(in >> sh & 0xff), true
}

// vchange moves the window starting at cell start (cell step st) from the
// state (in0, f0) to (in1, f1): what it contributed to each side's
// evaluation, counts and cell sums while open for that side is taken off
// and its new contribution put on, both sides' cells in one pass.
func (b *Board) vchange(start, st int, in0, f0, in1, f1 uint16) {
	t := &b.t
	var dg [2]int64
	var dt [2]int32
	for s := range 2 {
		a0, ok0 := b.open(s, in0, f0)
		a1, ok1 := b.open(s, in1, f1)
		if ok0 == ok1 && a0 == a1 {
			continue
		}
		if ok0 {
			b.eval[s] -= t.w[a0]
			switch a0 {
			case b.k - 1:
				b.open1[s]--
			case b.k:
				b.full[s]--
			}
			dg[s] -= t.g[a0]
			dt[s] -= t.tc[a0]
		}
		if ok1 {
			b.eval[s] += t.w[a1]
			switch a1 {
			case b.k - 1:
				b.open1[s]++
			case b.k:
				b.full[s]++
			}
			dg[s] += t.g[a1]
			dt[s] += t.tc[a1]
		}
	}
	if dg[0] != 0 || dg[1] != 0 || dt[0] != 0 || dt[1] != 0 {
		b.cells2(start, st, 0, dg[0], dt[0], dg[1], dt[1])
	}
}

// vflank is vchange for a change of the flank alone, which only side s
// (exact) sees: the window closes for s when its first stone of s flanks it
// and opens again when the last goes.
func (b *Board) vflank(start, st, s int, in, f0, f1 uint16) {
	sh := uint(8 * s)
	if in>>(8-sh)&0xff != 0 || (f0>>sh&0xff == 0) == (f1>>sh&0xff == 0) {
		return // dead for s either way, or open or closed both before and after
	}
	a := int(in >> sh & 0xff)
	t := &b.t
	sign := int64(1) // opens
	if f0>>sh&0xff == 0 {
		sign = -1 // closes
	}
	b.eval[s] += sign * t.w[a]
	switch a {
	case b.k - 1:
		b.open1[s] += int32(sign)
	case b.k:
		b.full[s] += int32(sign)
	}
	b.cells1(start, st, s, sign*t.g[a], int32(sign)*t.tc[a])
}

// remove is the exact inverse of add.
func (b *Board) remove(id, start, st, s int) {
	v := b.win[id]
	sh := uint(8 * s)
	a, o := int(v>>sh&0xff)-1, int(v>>(8-sh)&0xff)
	b.win[id] = v - 1<<sh
	t := &b.t
	switch {
	case o == 0:
		b.eval[s] -= t.dw[a]
		if a+1 == b.k-1 {
			b.open1[s]--
		} else if a+1 == b.k {
			b.open1[s]++
			b.full[s]--
		}
		if a == 0 {
			b.eval[s^1] += t.w[0]
			b.cells2(start, st, s, -t.dg[0], -t.dt[0], t.g[0], t.tc[0])
		} else {
			b.cells1(start, st, s, -t.dg[a], -t.dt[a])
		}
	case a == 0:
		b.eval[s^1] += t.w[o]
		if o == b.k-1 {
			b.open1[s^1]++
		}
		b.cells1(start, st, s^1, t.g[o], t.tc[o])
	}
}

// cells1 adds da to side s's window sum and dt to its threat counts on
// the K cells of a window: s's keys move by ownMult·da, the opponent's by da.
func (b *Board) cells1(start, st, s int, da int64, dt int32) {
	ks, ko := b.key[s], b.key[s^1]
	ds, do := ownMult*da<<jitterBits, da<<jitterBits
	end := start + (b.k-1)*st
	if dt == 0 {
		for y := start; y <= end; y += st {
			ks[y] += ds
			ko[y] += do
		}
		return
	}
	thr, hot, dth := b.thr, b.hot, int64(dt)<<(32*s)
	for y := start; y <= end; y += st {
		ks[y] += ds
		ko[y] += do
		thr[y] += dth
		hot[y] = isHot(thr[y])
	}
}

// cells2 is cells1 for a change to both sides' sums: (da, dt) for side s,
// (ea, et) for the opponent.
func (b *Board) cells2(start, st, s int, da int64, dt int32, ea int64, et int32) {
	ks, ko := b.key[s], b.key[s^1]
	ds, do := (ownMult*da+ea)<<jitterBits, (ownMult*ea+da)<<jitterBits
	end := start + (b.k-1)*st
	if dt == 0 && et == 0 {
		for y := start; y <= end; y += st {
			ks[y] += ds
			ko[y] += do
		}
		return
	}
	thr, hot, dth := b.thr, b.hot, int64(dt)<<(32*s)+int64(et)<<(32*(s^1))
	for y := start; y <= end; y += st {
		ks[y] += ds
		ko[y] += do
		thr[y] += dth
		hot[y] = isHot(thr[y])
	}
}

// isHot reports whether threat counts t (both sides) give a cell a class
// above Plain for one side: a window missing one stone, or two missing two.
func isHot(t int64) bool { return uint32(t) >= 2 || t>>32 >= 2 }

// touch adds delta stones to the adjacency bonus of the 8 cells around cell.
func (b *Board) touch(cell int, delta int64) {
	dk := delta * adjBonus * b.t.g[0] << jitterBits
	k0, k1 := b.key[0], b.key[1]
	r, c := cell/b.cols, cell%b.cols
	for dr := -1; dr <= 1; dr++ {
		rr := r + dr
		if rr < 0 || rr >= b.rows {
			continue
		}
		for dc := -1; dc <= 1; dc++ {
			cc := c + dc
			if cc < 0 || cc >= b.cols || (dr == 0 && dc == 0) {
				continue
			}
			k0[rr*b.cols+cc] += dk
			k1[rr*b.cols+cc] += dk
		}
	}
}

// CellOf returns the cell move m fills now: m itself on m,n,k, the playable
// cell of column m on Connect-X (-1 if the column is full).
func (b *Board) CellOf(m engine.Move) int {
	if b.gravity {
		return b.Playable(int(m))
	}
	return int(m)
}

// MoveOf returns the move that fills cell: its column on Connect-X.
func (b *Board) MoveOf(cell int) engine.Move {
	if b.gravity {
		return engine.Move(cell % b.cols)
	}
	return engine.Move(cell)
}

// Load makes the board hold the stones of pos, which must have the board's
// rules: it unmarks back to the longest common prefix of the two move
// sequences and marks the rest, so following a game costs a move or two.
func (b *Board) Load(pos *engine.Position) {
	b.moves = pos.Moves(b.moves[:0])
	b.cells = b.cells[:0]
	if b.gravity {
		clear(b.hs)
		for _, m := range b.moves {
			b.cells = append(b.cells, b.hs[m]*int32(b.cols)+int32(m))
			b.hs[m]++
		}
	} else {
		for _, m := range b.moves {
			b.cells = append(b.cells, int32(m))
		}
	}
	same := 0
	for same < b.Ply() && same < len(b.cells) && b.CellAt(same) == int(b.cells[same]) {
		same++
	}
	for b.Ply() > same {
		b.Unmark()
	}
	for _, c := range b.cells[same:] {
		b.Mark(int(c))
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
