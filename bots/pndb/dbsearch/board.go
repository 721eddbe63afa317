package dbsearch

import "github.com/kinrow/kinrow/engine"

// Sides on the search board are the engine's colours (X is 0, O is 1), so
// that a board serves either attacker; empty marks a free cell.
const empty int8 = -1

// maxTier is the weakest window tier a board may track in its hot sets: a
// window of tier t holds K−t stones of one side and none of the other. The
// board tracks tiers 1..top: 2 on m,n,k (the verifier reads the tier-2
// sets at every defender node), 1 under gravity (where only the result's
// counter-four cells want tier 2). Weaker tiers are found by a scan of the
// side's stones when needed (tierEmpties), not maintained by every stone.
const maxTier = 2

// board is the search's own copy of a position, with X and O as sides 0
// and 1 and no side to move (DB-search applies threats,
// not turns). It keeps, for each window of K cells in a line, the stones of
// each side in it, and for each side and tier 1..maxTier the set of windows
// of that tier ("hot" windows), so that threats are found without scanning
// the board. put and take allocate nothing.
type board struct {
	rows, cols, k int
	gravity       bool
	cells         []int8

	// Windows: window w covers cells winStart[w] + i*winStep[w], i < k.
	winStart, winStep []int32
	// cellWin[cellWinOff[c]:cellWinOff[c+1]] are the windows through cell c.
	cellWin    []int32
	cellWinOff []int32
	cnt        [][2]int16 // cnt[w][side]: the stones of side in window w

	top int16                   // the weakest tier tracked, <= maxTier
	hot [2][maxTier + 1][]int32 // hot[side][tier]: windows of that tier
	// hotIdx[w][side]: the index of window w in its hot list of side (a
	// window is in one tier at a time), or -1.
	hotIdx [][2]int32
	full   [2]int // windows completely held by a side

	// stamp marks cells in per-query sets without clearing: cell c is in
	// the current set when mark[c] == stamp.
	mark  []uint32
	stamp uint32
	// wmark and wstamp do the same for sets of windows.
	wmark  []uint32
	wstamp uint32
}

// newBoard builds the window tables for r.
func newBoard(r engine.Rules) *board {
	b := &board{rows: r.Rows, cols: r.Cols, k: r.K, gravity: r.Gravity(), top: maxTier}
	if b.gravity {
		b.top = 1
	}
	n := r.Rows * r.Cols
	b.cells = make([]int8, n)
	b.mark = make([]uint32, n)
	perCell := make([]int32, n+1)
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		for row := 0; row < r.Rows; row++ {
			for col := 0; col < r.Cols; col++ {
				if !engine.WindowFits(r.Rows, r.Cols, r.K, row, col, d) {
					continue
				}
				start := row*r.Cols + col
				step := dr*r.Cols + dc
				b.winStart = append(b.winStart, int32(start))
				b.winStep = append(b.winStep, int32(step))
				for i := 0; i < r.K; i++ {
					perCell[start+i*step+1]++
				}
			}
		}
	}
	for c := 0; c < n; c++ {
		perCell[c+1] += perCell[c]
	}
	b.cellWinOff = perCell
	b.cellWin = make([]int32, perCell[n])
	fill := make([]int32, n)
	for w := range b.winStart {
		for i := 0; i < r.K; i++ {
			c := int(b.winStart[w]) + i*int(b.winStep[w])
			b.cellWin[int(perCell[c])+int(fill[c])] = int32(w)
			fill[c]++
		}
	}
	nw := len(b.winStart)
	b.cnt = make([][2]int16, nw)
	b.hotIdx = make([][2]int32, nw)
	b.wmark = make([]uint32, nw)
	b.reset()
	return b
}

// reset empties the board.
func (b *board) reset() {
	for i := range b.cells {
		b.cells[i] = empty
	}
	clear(b.cnt)
	for i := range b.hotIdx {
		b.hotIdx[i] = [2]int32{-1, -1}
	}
	for s := 0; s < 2; s++ {
		b.full[s] = 0
		for t := 1; t <= maxTier; t++ {
			b.hot[s][t] = b.hot[s][t][:0]
		}
	}
	// Windows of tier K (no stones) are hot when K is a tracked tier.
	for s := int8(0); s < 2; s++ {
		if b.k <= int(b.top) {
			for w := range b.winStart {
				b.hotAdd(s, b.k, int32(w))
			}
		}
	}
}

// load makes the board pos. It changes only the cells that differ from
// the board's last position (the board is otherwise as load left it), so
// its cost follows the difference: nothing when the same position is
// searched for the other attacker, a few stones between PN leaves.
func (b *board) load(pos *engine.Position) {
	c := 0
	for row := 0; row < b.rows; row++ {
		for col := 0; col < b.cols; col++ {
			want := int8(pos.At(row, col))
			if have := b.cells[c]; have != want {
				if have != empty {
					b.take(c, have)
				}
				if want != empty {
					b.put(c, want)
				}
			}
			c++
		}
	}
}

func (b *board) hotAdd(s int8, t int, w int32) {
	b.hotIdx[w][s] = int32(len(b.hot[s][t]))
	b.hot[s][t] = append(b.hot[s][t], w)
}

func (b *board) hotDel(s int8, t int, w int32) {
	i := b.hotIdx[w][s]
	list := b.hot[s][t]
	last := list[len(list)-1]
	list[i] = last
	b.hotIdx[last][s] = i
	b.hot[s][t] = list[:len(list)-1]
	b.hotIdx[w][s] = -1
}

// put places a stone of side s on the empty cell c, keeping every window
// count through c, the hot sets and the full counts (take undoes it).
func (b *board) put(c int, s int8) {
	b.cells[c] = s
	k, top := int16(b.k), b.top
	si := int(s) & 1 // s as an index the compiler knows is 0 or 1
	oi := si ^ 1
	o := s ^ 1
	cnt := b.cnt
	for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
		p := &cnt[w]
		n := p[si] + 1
		p[si] = n
		m := p[oi]
		if m == 0 {
			// s's tier moves from t+1 to t.
			if t := k - n; t < top {
				b.hotDel(s, int(t+1), w)
				if t == 0 {
					b.full[s]++
				} else {
					b.hotAdd(s, int(t), w)
				}
			} else if t == top {
				b.hotAdd(s, int(top), w)
			}
		}
		// The other side's window dies with s's first stone.
		if n == 1 {
			if t := k - m; t <= top {
				b.hotDel(o, int(t), w)
			}
		}
	}
}

// take removes the stone of side s from cell c, undoing put.
func (b *board) take(c int, s int8) {
	b.cells[c] = empty
	k, top := int16(b.k), b.top
	si := int(s) & 1 // s as an index the compiler knows is 0 or 1
	oi := si ^ 1
	o := s ^ 1
	cnt := b.cnt
	for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
		p := &cnt[w]
		n := p[si]
		p[si] = n - 1
		m := p[oi]
		if m == 0 {
			// s's tier moves from t to t+1.
			if t := k - n; t < top {
				if t == 0 {
					b.full[s]--
				} else {
					b.hotDel(s, int(t), w)
				}
				b.hotAdd(s, int(t+1), w)
			} else if t == top {
				b.hotDel(s, int(top), w)
			}
		}
		// The other side's window comes back with s's last stone.
		if n == 1 {
			if t := k - m; t <= top {
				b.hotAdd(o, int(t), w)
			}
		}
	}
}

// tierEmpties appends the empty cells not marked with st of side s's
// windows of tier t (K−t stones of s, none of the other's), marking them:
// found through s's stones, or every window when t is K.
func (b *board) tierEmpties(s int8, t int, st uint32, dst []int32) []int32 {
	n := int16(b.k - t)
	for c, v := range b.cells {
		if n > 0 && v != s {
			continue
		}
		for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
			if p := b.cnt[w]; p[s] == n && p[s^1] == 0 {
				dst = b.addEmpties(w, st, dst)
			}
		}
	}
	return dst
}

// addEmpties appends the empty cells of window w not yet marked with st,
// marking them.
func (b *board) addEmpties(w int32, st uint32, dst []int32) []int32 {
	c, step := int(b.winStart[w]), int(b.winStep[w])
	for i := 0; i < b.k; i++ {
		if b.cells[c] == empty && b.mark[c] != st {
			b.mark[c] = st
			dst = append(dst, int32(c))
		}
		c += step
	}
	return dst
}

// playable reports whether a stone can go on cell c now: empty, and under
// gravity resting on the bottom row or on a stone.
func (b *board) playable(c int) bool {
	if b.cells[c] != empty {
		return false
	}
	return !b.gravity || c < b.cols || b.cells[c-b.cols] != empty
}

// newStamp starts a new cell set (see mark).
func (b *board) newStamp() uint32 {
	b.stamp++
	if b.stamp == 0 {
		clear(b.mark)
		b.stamp = 1
	}
	return b.stamp
}

// newWinStamp starts a new window set (see wmark).
func (b *board) newWinStamp() uint32 {
	b.wstamp++
	if b.wstamp == 0 {
		clear(b.wmark)
		b.wstamp = 1
	}
	return b.wstamp
}

// twoWindows reports whether at least two windows through cell c hold n
// stones of side s and none of the other's: a stone on c makes two winning
// cells (n = K−2) only then, so most cells are ruled out without looking
// at the windows' cells.
func (b *board) twoWindows(c int, s int8, n int16) bool {
	found := false
	for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
		if p := b.cnt[w]; p[s] == n && p[s^1] == 0 {
			if found {
				return true
			}
			found = true
		}
	}
	return false
}

// winCell returns the empty cell of a tier-1 window.
func (b *board) winCell(w int32) int {
	c, step := int(b.winStart[w]), int(b.winStep[w])
	for i := 0; i < b.k; i++ {
		if b.cells[c] == empty {
			return c
		}
		c += step
	}
	return -1
}

// emptiesOf appends the empty cells of window w to dst.
func (b *board) emptiesOf(w int32, dst []int32) []int32 {
	c, step := int(b.winStart[w]), int(b.winStep[w])
	for i := 0; i < b.k; i++ {
		if b.cells[c] == empty {
			dst = append(dst, int32(c))
		}
		c += step
	}
	return dst
}

// wins appends to dst the distinct cells where side s completes a line
// with one stone and that are playable now, and returns it.
func (b *board) wins(s int8, dst []int32) []int32 {
	st := b.newStamp()
	for _, w := range b.hot[s][1] {
		c := b.winCell(w)
		if c >= 0 && b.mark[c] != st && b.playable(c) {
			b.mark[c] = st
			dst = append(dst, int32(c))
		}
	}
	return dst
}

// hasWin reports whether side s has a playable winning cell.
func (b *board) hasWin(s int8) bool {
	for _, w := range b.hot[s][1] {
		if c := b.winCell(w); c >= 0 && b.playable(c) {
			return true
		}
	}
	return false
}

// isWinCell reports whether a stone of side s on the empty cell c would
// complete a line.
func (b *board) isWinCell(c int, s int8) bool {
	k := int16(b.k - 1)
	for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
		if c := b.cnt[w]; c[s] == k && c[s^1] == 0 {
			return true
		}
	}
	return false
}

// above returns the cell above c, or -1 on the top row.
func (b *board) above(c int) int {
	if c+b.cols >= len(b.cells) {
		return -1
	}
	return c + b.cols
}

// colTop returns the lowest empty cell of column col, or -1 if it is full.
func (b *board) colTop(col int) int {
	for c := col; c < len(b.cells); c += b.cols {
		if b.cells[c] == empty {
			return c
		}
	}
	return -1
}

// countWins counts side s's distinct playable winning cells, stopping at limit.
func (b *board) countWins(s int8, limit int) int {
	n, first := 0, -1
	for _, w := range b.hot[s][1] {
		c := b.winCell(w)
		if c < 0 || c == first || !b.playable(c) {
			continue
		}
		if first < 0 {
			first = c
			n = 1
		} else {
			n = 2
		}
		if n >= limit {
			break
		}
	}
	return n
}
