package pns

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestSolveAgainstExact: on random positions (many of them dead for one
// side or both long before the board is full) Solve, with its dead-position
// check and symmetric table, gives the value of a plain memoised negamax.
func TestSolveAgainstExact(t *testing.T) {
	for _, tc := range []struct {
		rules  string
		stones int // at least this many stones
		n      int // positions
	}{
		{"mnk:4x4x4", 6, 40},
		{"mnk:4x4x3", 3, 60},
		{"mnk:3x5x4", 4, 40},
		{"connectx:4x5x4", 8, 40},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			r, _ := engine.ParseRules(tc.rules)
			rng := rand.New(rand.NewPCG(11, uint64(tc.stones)))
			memo := map[uint64]exact{}
			s, err := New(r, Options{MemMiB: 16})
			if err != nil {
				t.Fatal(err)
			}
			values := map[int]int{}
			for i := 0; i < tc.n; i++ {
				p, _ := testpos.Random(r, rng, tc.stones+rng.IntN(4))
				if p.Ply() < tc.stones {
					continue
				}
				want := solveExact(p, memo).v
				v, known, err := s.Solve(context.Background(), p)
				if err != nil || !known {
					t.Fatalf("%s: %v known=%v", r.FormatMoveList(p.Moves(nil)), err, known)
				}
				if v != want {
					t.Errorf("%s: value %d, want %d", r.FormatMoveList(p.Moves(nil)), v, want)
				}
				values[want]++
			}
			if len(values) < 2 {
				t.Errorf("values %v: the positions do not tell much", values)
			}
			t.Logf("values checked: %v", values)
		})
	}
}

// TestLiveWindows counts the windows of small boards by hand.
func TestLiveWindows(t *testing.T) {
	for _, tc := range []struct {
		rules, moves string
		c            engine.Color
		want         int
	}{
		{"mnk:3x3x3", "", engine.X, 8},
		{"mnk:4x4x4", "", engine.O, 10},
		{"mnk:4x5x4", "", engine.X, 4*2 + 5 + 2*2},
		{"mnk:3x3x3", "b2", engine.O, 4}, // only the sides avoid the centre
		{"mnk:3x3x3", "b2", engine.X, 8}, // its own stone kills nothing
		{"connectx:4x4x4", "1", engine.O, 10 - 3},
		// X to move with 2 cells left: one stone to play, and only the
		// bottom row (a1 b1 c1, d1 empty) is one stone short.
		{"mnk:2x4x4", "a1 a2 b1 b2 c1 c2", engine.X, 1},
		{"mnk:2x4x4", "a1 a2 b1 b2 c1 c2", engine.O, 1},
		{"mnk:2x4x4", "a1 a2 b1 b2 c2 d1", engine.X, 0},
		// O to move, 3 cells left: X's bottom row lacks 2 stones, X has 1.
		{"mnk:2x4x4", "a1 a2 b1 b2 c2", engine.X, 0},
	} {
		p := testpos.Of(t, tc.rules, tc.moves)
		cover := make([]int32, p.Rules().Cells())
		if got := liveWindows(p, tc.c, cover); got != tc.want {
			t.Errorf("%s %q %v: %d windows, want %d", tc.rules, tc.moves, tc.c, got, tc.want)
		}
		sum := 0
		for _, n := range cover {
			sum += int(n)
		}
		if sum != tc.want*p.Rules().K {
			t.Errorf("%s %q: cover sums to %d, want %d", tc.rules, tc.moves, sum, tc.want*p.Rules().K)
		}
	}
}

// TestDeadRoot: a root where neither side has a window left (O to move on
// mnk:2x4x4 after a1 a2 b1 b2 c2) is decided at once: O's NotLose is proved
// with a legal best move, its Win disproved with no move to prefer.
func TestDeadRoot(t *testing.T) {
	p := testpos.Of(t, "mnk:2x4x4", "a1 a2 b1 b2 c2")
	for _, tc := range []struct {
		goal Goal
		want Outcome
	}{
		{NotLose, Proved},
		{Win, Disproved},
	} {
		s, err := New(p.Rules(), Options{MemMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		o, err := s.Prove(context.Background(), p, tc.goal)
		if err != nil || o != tc.want {
			t.Fatalf("goal %d: %v %v, want %v", tc.goal, o, err, tc.want)
		}
		if n := s.Stats().Expanded; n != 1 {
			t.Errorf("goal %d: %d expansions, want 1", tc.goal, n)
		}
		m, proved := s.Best()
		switch {
		case tc.want == Proved && (!proved || !p.Legal(m)):
			t.Errorf("goal %d: best %d proved=%v, want a legal proved move", tc.goal, m, proved)
		case tc.want == Disproved && m != engine.NoMove:
			t.Errorf("goal %d: best %d, want none", tc.goal, m)
		}
	}
}
