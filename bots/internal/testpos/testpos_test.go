package testpos

import (
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// TestOf: the position holds the moves given, in order, under the rules
// named.
func TestOf(t *testing.T) {
	for _, tc := range []struct {
		rules, moves string
	}{
		{"connect4", ""},
		{"connect4", "4453"},
		{"gomoku", "a8 a1 b8 c1"},
		{"mnk:7x7x4", "a3 a1 c3 b1"},
	} {
		p := Of(t, tc.rules, tc.moves)
		if got := p.Rules().FormatMoveList(p.Moves(nil)); tc.moves != "" && got != tc.moves {
			t.Errorf("%s %q: moves %q", tc.rules, tc.moves, got)
		}
		if tc.moves == "" && p.Ply() != 0 {
			t.Errorf("%s: %d plies on the empty board", tc.rules, p.Ply())
		}
	}
}

// TestRandom: the position holds the plies asked for and is open, or
// stops short at a move that would end the game (ended); the same seed
// gives the same moves.
func TestRandom(t *testing.T) {
	r, err := engine.ParseRules("mnk:4x4x3")
	if err != nil {
		t.Fatal(err)
	}
	endedSome := false
	for seed := range uint64(20) {
		for _, plies := range []int{0, 3, 16} {
			p, ended := Random(r, rand.New(rand.NewPCG(seed, 1)), plies)
			if p.Result() != engine.Open {
				t.Fatalf("seed %d, %d plies: result %v, want open", seed, plies, p.Result())
			}
			if !ended && p.Ply() != plies || ended && p.Ply() >= plies {
				t.Fatalf("seed %d: %d plies asked, %d played, ended %v", seed, plies, p.Ply(), ended)
			}
			q, _ := Random(r, rand.New(rand.NewPCG(seed, 1)), plies)
			if a, b := r.FormatMoveList(p.Moves(nil)), r.FormatMoveList(q.Moves(nil)); a != b {
				t.Fatalf("seed %d: %s, then %s", seed, a, b)
			}
			endedSome = endedSome || ended
		}
	}
	if !endedSome {
		t.Error("no walk of 16 plies on 4x4x3 ended")
	}
}

// TestNear: the cells within the distance of the one stone, and only they,
// are near it, at the board's edge too.
func TestNear(t *testing.T) {
	for _, tc := range []struct {
		moves string
		row   int
		col   int
	}{
		{"e5", 4, 4},
		{"a1", 0, 0},
	} {
		p := Of(t, "mnk:9x9x4", tc.moves)
		for row := 0; row < 9; row++ {
			for col := 0; col < 9; col++ {
				want := max(row-tc.row, tc.row-row) <= 2 && max(col-tc.col, tc.col-col) <= 2
				if got := Near(p, row, col, 2); got != want {
					t.Errorf("%s: Near(%d, %d) = %v, want %v", tc.moves, row, col, got, want)
				}
			}
		}
	}
}
