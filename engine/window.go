package engine

// Windows are the K-cell stretches of a line on a board (four directions,
// see Direction): the unit every evaluator counts stones in. This file is
// their one geometry; each evaluator keeps its own counts, in its own cell
// order, built from these answers.

// WindowFits tells whether the window of k cells along direction d whose
// first cell is (row, col) lies on a rows×cols board.
func WindowFits(rows, cols, k, row, col, d int) bool {
	dr, dc := Direction(d)
	er, ec := row+(k-1)*dr, col+(k-1)*dc
	return row >= 0 && row < rows && col >= 0 && col < cols && er >= 0 && er < rows && ec >= 0 && ec < cols
}

// WindowSpan returns the steps t, from lo to hi, such that the window of k
// cells along direction d starting t steps before (row, col) — at
// (row - t·dr, col - t·dc) — lies on a rows×cols board: the windows through
// the cell along d. lo > hi when none does.
func WindowSpan(rows, cols, k, row, col, d int) (lo, hi int) {
	dr, dc := Direction(d)
	rlo, rhi := axisSpan(row, dr, rows, k)
	clo, chi := axisSpan(col, dc, cols, k)
	return max(rlo, clo), min(rhi, chi)
}

// axisSpan is WindowSpan along one axis: the steps t such that x - t·dx
// starts k cells along dx within 0..size-1.
func axisSpan(x, dx, size, k int) (lo, hi int) {
	switch dx {
	case 1:
		return max(0, x+k-size), min(k-1, x)
	case -1:
		return max(0, k-1-x), min(k-1, size-1-x)
	}
	return 0, k - 1
}

// WindowSpans returns WindowSpan of every cell (row-major, cell = row·cols
// + col) and direction, at index cell·4 + d, for evaluators that walk the
// windows through a cell in their hot loop: built once per board, read
// without allocating. k must be at most 255 (MaxSide is below).
func WindowSpans(rows, cols, k int) [][2]uint8 {
	spans := make([][2]uint8, 4*rows*cols)
	for row := range rows {
		for col := range cols {
			for d := range 4 {
				lo, hi := WindowSpan(rows, cols, k, row, col, d)
				if lo > hi {
					lo, hi = 1, 0
				}
				spans[(row*cols+col)*4+d] = [2]uint8{uint8(lo), uint8(hi)}
			}
		}
	}
	return spans
}

// WindowCount is the number of windows of k cells on a rows×cols board.
func WindowCount(rows, cols, k int) int {
	h := max(cols-k+1, 0) * rows // horizontal
	v := max(rows-k+1, 0) * cols // vertical
	g := max(cols-k+1, 0) * max(rows-k+1, 0)
	return h + v + 2*g // and both diagonals
}
