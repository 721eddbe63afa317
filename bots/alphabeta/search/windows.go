package search

import "github.com/kinrow/kinrow/engine"

// windows keeps, for every window of K cells in a line, how many stones of
// each side it holds, and the evaluation those counts give, updated in
// O(K) per move.
type windows struct {
	rules  engine.Rules
	count  [2][]int16 // per window id
	weight []int32    // weight[n]: value of an open window holding n stones
	eval   int32      // from X's view
}

// Window ids: direction d (0..3) and start cell; windows whose K cells do not
// fit on the board are never touched.
func newWindows(r engine.Rules) *windows {
	w := &windows{rules: r}
	n := 4 * r.Cells()
	w.count[0] = make([]int16, n)
	w.count[1] = make([]int16, n)
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

// value is what one window contributes, from X's view.
func (w *windows) value(id int) int32 {
	x, o := w.count[0][id], w.count[1][id]
	switch {
	case x > 0 && o == 0:
		return w.weight[x]
	case o > 0 && x == 0:
		return -w.weight[o]
	}
	return 0
}

// update adds (delta +1) or removes (-1) a stone of c on cell.
func (w *windows) update(cell int, c engine.Color, delta int16) {
	rows, cols, k := w.rules.Rows, w.rules.Cols, w.rules.K
	r0, c0 := cell/cols, cell%cols
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		// Window starts: cell - t*(dr,dc) for t in 0..k-1, whose end fits.
		for t := 0; t < k; t++ {
			sr, sc := r0-t*dr, c0-t*dc
			er, ec := sr+(k-1)*dr, sc+(k-1)*dc
			if sr < 0 || sr >= rows || sc < 0 || sc >= cols || er < 0 || er >= rows || ec < 0 || ec >= cols {
				continue
			}
			id := d*rows*cols + sr*cols + sc
			w.eval -= w.value(id)
			w.count[c][id] += delta
			w.eval += w.value(id)
		}
	}
}

// gain is how much a stone of c on cell would change c's evaluation: the
// windows it extends for c plus those it spoils for the opponent.
func (w *windows) gain(cell int, c engine.Color) int32 {
	rows, cols, k := w.rules.Rows, w.rules.Cols, w.rules.K
	r0, c0 := cell/cols, cell%cols
	var g int32
	o := c.Other()
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		for t := 0; t < k; t++ {
			sr, sc := r0-t*dr, c0-t*dc
			er, ec := sr+(k-1)*dr, sc+(k-1)*dc
			if sr < 0 || sr >= rows || sc < 0 || sc >= cols || er < 0 || er >= rows || ec < 0 || ec >= cols {
				continue
			}
			id := d*rows*cols + sr*cols + sc
			mine, theirs := w.count[c][id], w.count[o][id]
			switch {
			case theirs == 0:
				g += w.weight[mine+1] - w.weight[mine]
			case mine == 0:
				g += w.weight[theirs] // blocking their window
			}
		}
	}
	return g
}
