package engine

import "testing"

// TestWindowGeometry checks WindowSpan, WindowSpans and WindowCount against
// the definition: every start cell and direction tried with WindowFits.
func TestWindowGeometry(t *testing.T) {
	for _, b := range []struct{ rows, cols, k int }{
		{6, 7, 4}, {3, 3, 3}, {15, 15, 5}, {1, 9, 4}, {9, 1, 4}, {4, 9, 6}, {2, 2, 2}, {5, 3, 4},
	} {
		rows, cols, k := b.rows, b.cols, b.k
		spans := WindowSpans(rows, cols, k)
		fits := 0
		for row := range rows {
			for col := range cols {
				for d := range 4 {
					if WindowFits(rows, cols, k, row, col, d) {
						fits++
					}
					dr, dc := Direction(d)
					lo, hi := WindowSpan(rows, cols, k, row, col, d)
					for step := range k {
						in := step >= lo && step <= hi
						if want := WindowFits(rows, cols, k, row-step*dr, col-step*dc, d); in != want {
							t.Errorf("%dx%dx%d cell (%d,%d) d %d step %d: in span %d..%d = %v, fits %v", rows, cols, k, row, col, d, step, lo, hi, in, want)
						}
					}
					s := spans[(row*cols+col)*4+d]
					if n := max(hi-lo+1, 0); max(int(s[1])-int(s[0])+1, 0) != n || n > 0 && int(s[0]) != lo {
						t.Errorf("%dx%dx%d cell (%d,%d) d %d: WindowSpans %v, WindowSpan %d..%d", rows, cols, k, row, col, d, s, lo, hi)
					}
				}
			}
		}
		if got := WindowCount(rows, cols, k); got != fits {
			t.Errorf("WindowCount(%d, %d, %d) = %d; %d windows fit", rows, cols, k, got, fits)
		}
	}
}
