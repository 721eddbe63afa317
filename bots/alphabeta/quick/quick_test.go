package quick

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/internal/c4set"
)

// position plays the 1-based columns of seq on a board of sv.
func position(t testing.TB, sv *solver.Solver, seq string) solver.Position {
	t.Helper()
	p := sv.NewPosition()
	if _, err := sv.PlaySequence(&p, seq); err != nil {
		t.Fatalf("%s: %v", seq, err)
	}
	return p
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestWindows: the windows through each cell of 6x7 are the classic table,
// and on every board the windows through all cells add up to k times the
// number of windows (counted apart, direction by direction).
func TestWindows(t *testing.T) {
	classic := [6][7]int{ // bottom row first
		{3, 4, 5, 7, 5, 4, 3},
		{4, 6, 8, 10, 8, 6, 4},
		{5, 8, 11, 13, 11, 8, 5},
		{5, 8, 11, 13, 11, 8, 5},
		{4, 6, 8, 10, 8, 6, 4},
		{3, 4, 5, 7, 5, 4, 3},
	}
	e := newEvaluator(6, 7, 4)
	for r := range classic {
		for c, want := range classic[r] {
			if got := e.windows(1 << uint(c*7+r)); got != want {
				t.Errorf("6x7, row %d col %d: %d windows, want %d", r, c, got, want)
			}
			if got := e.cell[c*7+r]; got != want {
				t.Errorf("6x7, row %d col %d: the ordering's table holds %d windows, want %d", r, c, got, want)
			}
		}
	}
	for _, b := range [][3]int{{6, 7, 4}, {4, 5, 3}, {5, 4, 4}, {7, 8, 5}, {3, 16, 3}, {9, 6, 2}, {2, 21, 5}} {
		rows, cols, k := b[0], b[1], b[2]
		e := newEvaluator(rows, cols, k)
		var all uint64
		for c := 0; c < cols; c++ {
			all |= (uint64(1)<<uint(rows) - 1) << uint(c*(rows+1))
		}
		fit := func(n int) int { return max(n-k+1, 0) }
		n := fit(rows)*cols + rows*fit(cols) + 2*fit(rows)*fit(cols)
		if got := e.windows(all); got != k*n {
			t.Errorf("%dx%dx%d: %d cell-windows, want %d x %d", rows, cols, k, got, k, n)
		}
	}
}

// TestTactics: the search answers immediate wins, forced blocks and double
// threats even when its time is gone before it starts (the iterations up
// to minDepth finish), and a cancelled search stops with a legal move.
func TestTactics(t *testing.T) {
	sv, err := solver.New(6, 7, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	s := New(6, 7, 4, 1)
	for _, tc := range []struct {
		seq, ok string
		win     bool // the search proves a win
	}{
		{"445566", "37", true}, // x completes the bottom row at once
		{"4455", "36", true},   // x makes two threats on the bottom row
		{"21314", "5", false},  // o must block 5
		{"41521", "367", false},
		{"326731131", "145", false},
		{"4647117652736", "7", false},
		{"26275354626", "4", false},
	} {
		p := position(t, sv, tc.seq)
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Millisecond))
		col, r, err := s.BestMove(ctx, p, nil)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", tc.seq, err)
		}
		if got := strconv.Itoa(col + 1); !contains(tc.ok, got) {
			t.Errorf("after %s: column %s (%+v); want one of %s", tc.seq, got, r, tc.ok)
		}
		if r.Depth < min(minDepth, 42-p.Moves()) && !(r.Proven && r.Value > 0) {
			t.Errorf("after %s: the starved search stopped at depth %d, want at least %d", tc.seq, r.Depth, minDepth)
		}
		if tc.win && !(r.Proven && r.Value > 0) {
			t.Errorf("after %s: %+v, want a proven win", tc.seq, r)
		}
	}
	p := position(t, sv, "4444")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	col, r, err := s.BestMove(ctx, p, nil)
	if err != nil || !p.CanPlay(col) || r.Depth != 0 {
		t.Errorf("cancelled: column %d, %+v, %v; want a legal column and no iteration", col, r, err)
	}
}

func contains(set, s string) bool {
	for i := range set {
		if set[i:i+1] == s {
			return true
		}
	}
	return false
}

// TestProvenAgreesWithSolver: every value the search calls proven (a win
// or a loss) or exact (every line searched to its end) has the sign the
// solver proves, a proven win is no faster than the fastest one, and a
// proven win's column wins: on the shared end-game set and on random
// positions (seeded) of small boards, searched with no deadline.
func TestProvenAgreesWithSolver(t *testing.T) {
	check := func(t *testing.T, sv *solver.Solver, s *Searcher, p solver.Position, name string) {
		t.Helper()
		want, err := sv.Solve(context.Background(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		col, r, err := s.BestMove(context.Background(), p, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !r.Proven && !r.Exact {
			t.Fatalf("%s: searched to the end without proof: %+v", name, r)
		}
		if sign(r.Value) != sign(want) {
			t.Errorf("%s: value %d (%+v), the solver's score %d", name, r.Value, r, want)
			return
		}
		if r.Proven && r.Value > 0 {
			if got := r.Score(p); got > want {
				t.Errorf("%s: a win of score %d, faster than the fastest (%d)", name, got, want)
			}
			c := p
			if !c.IsWinningMove(col) {
				c.Play(col)
				if v, _ := sv.Solve(context.Background(), c, true); v >= 0 {
					t.Errorf("%s: proven win, but column %d does not win", name, col+1)
				}
			}
		}
	}
	t.Run("Test_L3_R1", func(t *testing.T) {
		sv, err := solver.New(6, 7, 4, 16)
		if err != nil {
			t.Fatal(err)
		}
		s := New(6, 7, 4, 4)
		for _, f := range c4set.Read(t, "Test_L3_R1.txt", 200, nil) {
			check(t, sv, s, position(t, sv, f[0]), f[0])
		}
	})
	rng := rand.New(rand.NewPCG(7, 26))
	for _, b := range [][3]int{{4, 5, 3}, {5, 4, 4}, {4, 4, 3}, {3, 8, 3}} {
		rows, cols, k := b[0], b[1], b[2]
		t.Run(strconv.Itoa(rows)+"x"+strconv.Itoa(cols)+"x"+strconv.Itoa(k), func(t *testing.T) {
			sv, err := solver.New(rows, cols, k, 4)
			if err != nil {
				t.Fatal(err)
			}
			s := New(rows, cols, k, 1)
			for i := 0; i < 100; i++ {
				p := sv.NewPosition()
				seq := ""
				for n := rng.IntN(rows * cols / 2); n > 0; n-- {
					c := rng.IntN(cols)
					if !p.CanPlay(c) || p.IsWinningMove(c) {
						continue
					}
					p.Play(c)
					seq += strconv.Itoa(c+1) + " "
				}
				if p.GameOver() {
					continue
				}
				check(t, sv, s, p, seq)
			}
		})
	}
}

// BenchmarkValue searches a Test_L1_R3 position ten plies deep from an
// empty table: the quick search's node rate, and no allocation.
func BenchmarkValue(b *testing.B) {
	sv, err := solver.New(6, 7, 4, 4)
	if err != nil {
		b.Fatal(err)
	}
	s := New(6, 7, 4, 16)
	p := position(b, sv, "13712")
	b.ReportAllocs()
	start := s.nodes
	for b.Loop() {
		s.NewGame()
		s.valueAt(p, 10)
	}
	b.ReportMetric(float64(s.nodes-start)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
