package mics

import "math"

// weights are the tables of the MICS heuristic for one K, indexed by the
// stones a a side has in a window that is still open for it (no opponent
// stone in it), 0 ≤ a ≤ K.
type weights struct {
	w  []int64 // value of the window for the side (board evaluation)
	g  []int64 // what one more stone brings it: w[a+1]-w[a] (0 when full)
	tc []int32 // threat counts: 1<<16 when one stone is missing, 1 when two are
	dw []int64 // w[a+1]-w[a], for a < K
	dg []int64 // g[a+1]-g[a], for a < K
	dt []int32 // tc[a+1]-tc[a], for a < K
}

// Heuristic constants. A window's value grows by a factor 8 per stone (for
// K ≤ 13; for longer lines the exponent is scaled so that a window missing one
// stone is worth 8^12 windows of none). Own windows count double in a cell's
// value (alignment with own stones); each neighbouring stone adds adjBonus
// times the value of one stone in an empty window.
const (
	growth   = 8
	maxExp   = 12
	ownMult  = 2
	adjBonus = 1
)

// Class thresholds. Every sum of window values stays below 1<<53; a double
// threat adds at least classDouble, a win or a forced block at least
// classWin, so the classes rank above anything the sum can reach. Keys are
// values shifted left by jitterBits, with a seeded tie-break in the low bits.
const (
	classDouble = int64(1) << 54
	classWin    = int64(1) << 56
	jitterBits  = 4
	// BlockKey is the lowest key of a cell that completes a window of the
	// opponent (a forced block); a win is above it.
	blockKey = classWin << jitterBits
	winKey   = 2 * classWin << jitterBits
)

func newWeights(k int) weights {
	t := weights{
		w: make([]int64, k+1), g: make([]int64, k+1), tc: make([]int32, k+1),
		dw: make([]int64, k), dg: make([]int64, k), dt: make([]int32, k),
	}
	scale := 1.0
	if k-1 > maxExp {
		scale = float64(maxExp) / float64(k-1)
	}
	for a := 0; a < k; a++ {
		// 64·8^(a·scale): strictly increasing, at most 64·8^12 = 2^42.
		t.w[a] = int64(math.Round(64 * math.Pow(growth, float64(a)*scale)))
	}
	t.w[k] = 2 * t.w[k-1]
	for a := 0; a < k; a++ {
		t.g[a] = t.w[a+1] - t.w[a]
	}
	t.g[k] = 0
	t.g[k-1] = 0 // completing a window wins: the class says it, not the sum
	t.tc[k-1] = 1 << 16
	if k-2 >= 1 {
		t.tc[k-2] = 1
	}
	for a := 0; a < k; a++ {
		t.dw[a] = t.w[a+1] - t.w[a]
		t.dg[a] = t.g[a+1] - t.g[a]
		t.dt[a] = t.tc[a+1] - t.tc[a]
	}
	return t
}

// Class is the rank of a free cell for the side to play it.
type Class int8

// The classes, lowest first. Win and Block complete a window missing one
// stone; Double and StopDouble make two or more windows each one stone from
// completion (for the side, or for the opponent if it played there).
const (
	Plain Class = iota
	StopDouble
	Double
	Block
	Win
)

// String names the class.
func (c Class) String() string {
	switch c {
	case StopDouble:
		return "stop-double"
	case Double:
		return "double"
	case Block:
		return "block"
	case Win:
		return "win"
	}
	return "plain"
}

// threats returns side s's threat counts on cell: the open windows missing
// one stone in units of 1<<16, those missing two in units of 1.
func (b *Board) threats(cell, s int) int32 { return int32(b.thr[cell] >> (32 * s)) }

// Class returns the rank of free cell for side s (0 X, 1 O).
func (b *Board) Class(cell, s int) Class {
	t, u := b.threats(cell, s), b.threats(cell, s^1)
	switch {
	case t>>16 > 0:
		return Win
	case u>>16 > 0:
		return Block
	case t&0xffff >= 2:
		return Double
	case u&0xffff >= 2:
		return StopDouble
	}
	return Plain
}

// Criticality returns the MICS sum of a free cell for side s: the value of
// the windows through it still open for s (counted ownMult times) and for the
// opponent, plus the adjacency bonus and a centrality bonus smaller than one
// stone's worth (a tie-break that prefers the centre). It ignores the classes.
func (b *Board) Criticality(cell, s int) int64 { return b.key[s][cell] >> jitterBits }

// Value returns the MICS value of a free cell for side s: its criticality,
// raised above any criticality by its class (Win > Block > Double >
// StopDouble). On Connect-X a cell under a cell where the opponent would win
// is lowered below every other.
func (b *Board) Value(cell, s int) int64 {
	v := b.Criticality(cell, s)
	t, u := b.threats(cell, s), b.threats(cell, s^1)
	if t|u >= 2 {
		switch {
		case t>>16 > 0:
			return v + 2*classWin
		case u>>16 > 0:
			return v + classWin
		case t&0xffff >= 2:
			v += 2 * classDouble
		case u&0xffff >= 2:
			v += classDouble
		}
	}
	if b.gravity && cell+b.cols < b.n && b.threats(cell+b.cols, s^1)>>16 > 0 {
		v -= 4 * classWin
	}
	return v
}

// Evaluate returns the static value of the board for side s: the weights of
// the windows open for s minus those open for the opponent.
func (b *Board) Evaluate(s int) int64 { return b.eval[s] - b.eval[s^1] }

// CanWin reports whether side s completes a window with its next stone: on
// m,n,k whether one of its windows misses one stone, on Connect-X whether
// such a missing stone is on a playable cell.
func (b *Board) CanWin(s int) bool {
	if b.open1[s] == 0 {
		return false
	}
	if !b.gravity {
		return true
	}
	for c := 0; c < b.cols; c++ {
		if h := int(b.height[c]); h < b.rows && b.threats(h*b.cols+c, s)>>16 > 0 {
			return true
		}
	}
	return false
}

// Candidates writes the best l candidate cells for the side to move into
// dst[:0], best first, and returns them: the free cells on m,n,k, the
// playable cell of each column on Connect-X, ranked by Value with the
// board's tie-break in the low bits of the key. dst must have capacity l;
// nothing is allocated then.
func (b *Board) Candidates(dst []Candidate, l int) []Candidate {
	s := (b.n - b.nfree) & 1
	h := dst[:0]
	if l <= 0 {
		return h
	}
	if b.gravity {
		for c := 0; c < b.cols; c++ {
			hc := int(b.height[c])
			if hc >= b.rows {
				continue
			}
			cell := hc*b.cols + c
			h = pushTop(h, l, Candidate{b.Value(cell, s)<<jitterBits | int64(b.jitter[cell]), int32(cell)})
		}
		return sortHeap(h)
	}
	keys, hot := b.key[s], b.hot
	free := b.free[:b.nfree]
	// Fill the heap with the first l cells, then keep the best.
	i := 0
	for ; i < len(free) && len(h) < l; i++ {
		cell := free[i]
		key := keys[cell]
		if hot[cell] {
			key = b.Value(int(cell), s)<<jitterBits | int64(b.jitter[cell])
		}
		h = append(h, Candidate{key, cell})
		siftUp(h, len(h)-1)
	}
	if len(h) == 0 {
		return h
	}
	low := h[0]
	for _, cell := range free[i:] {
		key := keys[cell]
		if hot[cell] {
			key = b.Value(int(cell), s)<<jitterBits | int64(b.jitter[cell])
		}
		if key < low.Key || key == low.Key && cell > low.Cell {
			continue
		}
		h[0] = Candidate{key, cell}
		siftDown(h, 0)
		low = h[0]
	}
	return sortHeap(h)
}
