package dbsearch

import "github.com/kinrow/kinrow/engine"

// Sides on the search board are relative: the attacker is att, the defender def.
const (
	att   int8 = 0
	def   int8 = 1
	empty int8 = -1
)

// maxTier is the weakest window tier tracked in the hot sets: a window of
// tier t holds K−t stones of one side and none of the other.
const maxTier = 3

// board is the search's own copy of a position, with the attacker and the
// defender as sides 0 and 1 and no side to move (DB-search applies threats,
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

	top [2]int16                // hot tiers tracked: 1..top[side]
	hot [2][maxTier + 1][]int32 // hot[side][tier]: windows of that tier
	// hotIdx[w][side]: the index of window w in its hot list of side (a
	// window is in one tier at a time), or -1.
	hotIdx [][2]int32
	full   [2]int  // windows completely held by a side
	loaded []int32 // the stones load put down

	// stamp marks cells in per-query sets without clearing: cell c is in
	// the current set when mark[c] == stamp.
	mark  []uint32
	stamp uint32
}

// newBoard builds the window tables for r.
func newBoard(r engine.Rules) *board {
	b := &board{rows: r.Rows, cols: r.Cols, k: r.K, gravity: r.Kind == engine.ConnectX}
	// Tier-3 windows serve only the three operator (m,n,k, K >= 4) and only
	// the attacker's.
	b.top = [2]int16{2, 2}
	if !b.gravity && r.K >= 4 {
		b.top[att] = 3
	}
	n := r.Rows * r.Cols
	b.cells = make([]int8, n)
	b.mark = make([]uint32, n)
	perCell := make([]int32, n+1)
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		for row := 0; row < r.Rows; row++ {
			for col := 0; col < r.Cols; col++ {
				er, ec := row+dr*(r.K-1), col+dc*(r.K-1)
				if er < 0 || er >= r.Rows || ec < 0 || ec >= r.Cols {
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
		if b.k <= int(b.top[s]) {
			for w := range b.winStart {
				b.hotAdd(s, b.k, int32(w))
			}
		}
	}
}

// load copies pos onto the board with attacker as side att. It takes back
// the stones of the previous load (the board is otherwise as load left it)
// rather than clearing every window, so its cost follows the stones.
func (b *board) load(pos *engine.Position, attacker engine.Color) {
	for i := len(b.loaded) - 1; i >= 0; i-- {
		c := int(b.loaded[i])
		b.take(c, b.cells[c])
	}
	b.loaded = b.loaded[:0]
	for row := 0; row < b.rows; row++ {
		for col := 0; col < b.cols; col++ {
			v := pos.At(row, col)
			if v == engine.Empty {
				continue
			}
			c := row*b.cols + col
			if v == attacker {
				b.put(c, att)
			} else {
				b.put(c, def)
			}
			b.loaded = append(b.loaded, int32(c))
		}
	}
}

// tierOf is the hot tier of window w for side s, or 0 when it is not hot.
func (b *board) tierOf(s int8, w int32) int {
	if b.cnt[w][s^1] != 0 {
		return 0
	}
	t := b.k - int(b.cnt[w][s])
	if t < 1 || t > int(b.top[s]) {
		return 0
	}
	return t
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

// put places a stone of side s on the empty cell c.
func (b *board) put(c int, s int8) {
	b.cells[c] = s
	b.update(c, s, 1)
}

// take removes the stone of side s from cell c.
func (b *board) take(c int, s int8) {
	b.cells[c] = empty
	b.update(c, s, -1)
}

// update adds delta stones of side s to every window through c, keeping the
// hot sets and full counts.
func (b *board) update(c int, s int8, delta int16) {
	k := int16(b.k)
	o := s ^ 1
	ts, to := b.top[s], b.top[o]
	cnt := b.cnt
	for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
		p := &cnt[w]
		n0, m := p[s], p[o]
		n1 := n0 + delta
		p[s] = n1
		if n0 == k {
			b.full[s]--
		}
		if n1 == k {
			b.full[s]++
		}
		if m == 0 {
			// s's tier moves from k-n0 to k-n1.
			if t := k - n0; t >= 1 && t <= ts {
				b.hotDel(s, int(t), w)
			}
			if t := k - n1; t >= 1 && t <= ts {
				b.hotAdd(s, int(t), w)
			}
		}
		// The other side's window dies with s's first stone and comes back
		// when s's last one goes.
		if t := k - m; t >= 1 && t <= to {
			switch {
			case n0 == 0 && n1 > 0:
				b.hotDel(o, int(t), w)
			case n0 > 0 && n1 == 0:
				b.hotAdd(o, int(t), w)
			}
		}
	}
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
