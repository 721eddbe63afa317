package wide

import (
	"math/bits"

	"github.com/kinrow/kinrow/engine"
)

// windows keeps, for every window of k cells along a line, how many stones
// of each side it holds, and per side the sum of the weights of its open
// windows (those without an opposing stone), updated in O(k) per move.
// Window ids: direction d (see direction) times cells, plus the cell index
// col*rows+row of the window's first cell; a window's cells are its first
// cell stepped k-1 times along the direction, so the windows through a
// cell along d have ids id0 - t*stride[d] for t in the cell's span.
type windows struct {
	rows, cols, k, cells int
	cnt                  [][2]uint8
	w                    []int64 // w[n]: weight of an open window holding n stones
	sum                  [2]int64
	stride               [4]int
	spans                [][2]uint8 // per cell*4+d: the steps t from, to (empty if from > to)
	// key[ns*(k+1)+no]: what a window holding ns stones of the mover and
	// no of the other side adds to a move's ordering key (order.go).
	key []int64
}

// newWindows returns the empty counts of a rows x cols board, k in a row,
// with the window spans of every cell and the ordering key table.
func newWindows(rows, cols, k int) windows {
	ws := windows{rows: rows, cols: cols, k: k, cells: rows * cols}
	ws.cnt = make([][2]uint8, 4*ws.cells)
	ws.w = make([]int64, k+1)
	for n := 1; n <= k; n++ {
		ws.w[n] = 1 << uint(min(2*(n-1), 40))
	}
	ws.spans = make([][2]uint8, 4*ws.cells)
	for d := range 4 {
		dr, dc := engine.Direction(d)
		ws.stride[d] = dc*rows + dr
		for c := range cols {
			for r := range rows {
				lo, hi := engine.WindowSpan(rows, cols, k, r, c, d)
				if lo > hi {
					lo, hi = 1, 0
				}
				ws.spans[(c*rows+r)*4+d] = [2]uint8{uint8(lo), uint8(hi)}
			}
		}
	}
	ws.key = make([]int64, (k+1)*(k+1))
	for ns := 0; ns < k; ns++ {
		for no := 0; no <= k; no++ {
			var v int64
			switch {
			case no == 0:
				v = ws.w[ns+1] - ws.w[ns]
				if ns == k-2 {
					v += threatKey
				}
			case ns == 0:
				v = ws.w[no]
			}
			ws.key[ns*(k+1)+no] = v
		}
	}
	return ws
}

// add counts a stone of s placed at (col, row). It returns the most
// stones of s in one of its open windows through the cell, the stone
// included: below k-1, the stone neither wins nor makes a winning cell.
func (ws *windows) add(s, col, row int) int {
	o := s ^ 1
	most := uint8(0)
	cell := col*ws.rows + row
	for d := range 4 {
		sp := ws.spans[cell*4+d]
		id, stride := d*ws.cells+cell-int(sp[0])*ws.stride[d], ws.stride[d]
		for t := int(sp[0]); t <= int(sp[1]); t++ {
			e := &ws.cnt[id]
			id -= stride
			ns, no := e[s], e[o]
			if no == 0 {
				ws.sum[s] += ws.w[ns+1] - ws.w[ns]
				most = max(most, ns+1)
			} else if ns == 0 {
				ws.sum[o] -= ws.w[no]
			}
			e[s] = ns + 1
		}
	}
	return int(most)
}

// remove takes back add.
func (ws *windows) remove(s, col, row int) {
	o := s ^ 1
	cell := col*ws.rows + row
	for d := range 4 {
		sp := ws.spans[cell*4+d]
		id, stride := d*ws.cells+cell-int(sp[0])*ws.stride[d], ws.stride[d]
		for t := int(sp[0]); t <= int(sp[1]); t++ {
			e := &ws.cnt[id]
			id -= stride
			ns, no := e[s]-1, e[o]
			e[s] = ns
			if no == 0 {
				ws.sum[s] -= ws.w[ns+1] - ws.w[ns]
			} else if ns == 0 {
				ws.sum[o] += ws.w[no]
			}
		}
	}
}

// orderKey is the ordering key of a stone of s at (col, row): threatKey
// times the open windows it brings to k-1 stones of s (each then holds a
// winning cell of s: the move's threat count), plus how much it raises
// s's window sum and lowers the opponent's (the open lines it makes or
// spoils).
func (ws *windows) orderKey(s, col, row int) int64 {
	o := s ^ 1
	k1 := ws.k + 1
	var key int64
	cell := col*ws.rows + row
	for d := range 4 {
		sp := ws.spans[cell*4+d]
		id, stride := d*ws.cells+cell-int(sp[0])*ws.stride[d], ws.stride[d]
		for t := int(sp[0]); t <= int(sp[1]); t++ {
			e := ws.cnt[id]
			id -= stride
			key += ws.key[int(e[s])*k1+int(e[o])]
		}
	}
	return key
}

// evalMax bounds heuristic values, far below the proven scores (score.go).
const evalMax = 1 << 26

// Row parity masks: bit r set for rows r = 0, 2, 4... (the first, third...
// row, good threats for the first player) and for the others (good for
// the second player).
const (
	oddRows  = 0x5555555555555555
	evenRows = 0xAAAAAAAAAAAAAAAA
)

// evaluate is the heuristic value of the position for the side to move:
// its open windows' weights less the opponent's, plus its winning cells
// less the opponent's, each worth a window of k-1 stones, twice that on a
// row of the side's parity (the first player's threats on odd rows counted
// from 1, the second's on even rows), and an opponent's threat directly
// playable once more (it forces the reply).
func (b *Board) evaluate() int32 {
	s := b.ply & 1
	o := s ^ 1
	ws := &b.windows
	v := ws.sum[s] - ws.sum[o]
	if len(b.set) == 0 { // no winning cell on the board
		return int32(min(max(v, -evalMax), evalMax))
	}
	good := [2]uint64{oddRows, evenRows}
	var ts, to int
	for c := 0; c < b.cols; c++ {
		h := b.height[c]
		if h >= b.rows {
			continue
		}
		empty := b.colMask &^ (1<<uint(h) - 1)
		mine, theirs := b.win[s][c]&empty, b.win[o][c]&empty
		if mine|theirs == 0 {
			continue
		}
		ts += bits.OnesCount64(mine) + bits.OnesCount64(mine&good[s])
		to += bits.OnesCount64(theirs) + bits.OnesCount64(theirs&good[o]) + int(theirs>>uint(h)&1)
	}
	v += int64(ts-to) * ws.w[b.k-1]
	return int32(min(max(v, -evalMax), evalMax))
}
