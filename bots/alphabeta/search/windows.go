package search

import "github.com/kinrow/kinrow/engine"

// windows keeps, for every window of K cells in a line, how many stones of
// each side it holds, and the evaluation those counts give, updated in
// O(K) per move. Where only exactly K wins for a side (the line rule's
// ExactFor: exact, black in renju) a window also counts the side's stones
// on its two flanking cells, and is worth nothing to the side while one is
// there: filling it would make an overline, which wins nothing.
type windows struct {
	rules  engine.Rules
	spans  [][2]uint8 // engine.WindowSpans: per cell*4+d, the steps back to the windows' starts
	step   [4]int     // per direction: a step along it, in cells
	count  [2][]int16 // per window id
	flank  [2][]int16 // per window id: stones on its flanking cells (exact sides only)
	exact  [2]bool    // per side: only exactly K wins
	weight []int32    // weight[n]: value of an open window holding n stones
	eval   int32      // from X's view
}

// Window ids: direction d (0..3) and start cell; windows whose K cells do not
// fit on the board are never touched.
func newWindows(r engine.Rules) *windows {
	w := &windows{rules: r, spans: engine.WindowSpans(r.Rows, r.Cols, r.K)}
	for d := range 4 {
		dr, dc := engine.Direction(d)
		w.step[d] = dr*r.Cols + dc
	}
	n := 4 * r.Cells()
	for s := range 2 {
		w.count[s] = make([]int16, n)
		if w.exact[s] = r.Line.ExactFor(engine.Color(s)); w.exact[s] {
			w.flank[s] = make([]int16, n)
		}
	}
	w.weight = make([]int32, r.K+1)
	v := int32(1)
	for i := 1; i <= r.K; i++ {
		w.weight[i] = v
		if v < 1<<24 {
			v *= 8
		}
	}
	return w
}

// open tells whether window id can still make a winning line of c: no
// stone of the opponent in it, and where only exactly K wins for c, none
// of c's on its flanks.
func (w *windows) open(id int, c engine.Color) bool {
	return w.count[c.Other()][id] == 0 && (!w.exact[c] || w.flank[c][id] == 0)
}

// value is what one window contributes, from X's view.
func (w *windows) value(id int) int32 {
	x, o := w.count[0][id], w.count[1][id]
	switch {
	case x > 0 && w.open(id, engine.X):
		return w.weight[x]
	case o > 0 && w.open(id, engine.O):
		return -w.weight[o]
	}
	return 0
}

// flankID returns the window of direction d starting t steps before (r0,
// c0) — a window the cell flanks when t is -1 or K —, or -1 when its K
// cells are not all on the board.
func (w *windows) flankID(d, r0, c0, t int) int {
	rows, cols := w.rules.Rows, w.rules.Cols
	dr, dc := engine.Direction(d)
	sr, sc := r0-t*dr, c0-t*dc
	if !engine.WindowFits(rows, cols, w.rules.K, sr, sc, d) {
		return -1
	}
	return d*rows*cols + sr*cols + sc
}

// update adds (delta +1) or removes (-1) a stone of c on cell.
func (w *windows) update(cell int, c engine.Color, delta int16) {
	cols, k, n := w.rules.Cols, w.rules.K, w.rules.Cells()
	for d := 0; d < 4; d++ {
		// Window starts: cell - t*step for t in the cell's span.
		sp := w.spans[cell*4+d]
		for t := int(sp[0]); t <= int(sp[1]); t++ {
			id := d*n + cell - t*w.step[d]
			w.eval -= w.value(id)
			w.count[c][id] += delta
			w.eval += w.value(id)
		}
		if !w.exact[c] {
			continue
		}
		// The windows the cell flanks: the one starting after it, the one
		// ending before it.
		for _, t := range [2]int{-1, k} {
			id := w.flankID(d, cell/cols, cell%cols, t)
			if id < 0 {
				continue
			}
			w.eval -= w.value(id)
			w.flank[c][id] += delta
			w.eval += w.value(id)
		}
	}
}

// gain is how much a stone of c on cell would change c's evaluation: the
// windows it extends for c plus those it spoils for the opponent.
func (w *windows) gain(cell int, c engine.Color) int32 {
	n := w.rules.Cells()
	var g int32
	o := c.Other()
	for d := 0; d < 4; d++ {
		sp := w.spans[cell*4+d]
		for t := int(sp[0]); t <= int(sp[1]); t++ {
			id := d*n + cell - t*w.step[d]
			mine, theirs := w.count[c][id], w.count[o][id]
			switch {
			case w.open(id, c):
				g += w.weight[mine+1] - w.weight[mine]
			case mine == 0 && theirs > 0 && w.open(id, o):
				g += w.weight[theirs] // blocking their window
			}
		}
	}
	return g
}
