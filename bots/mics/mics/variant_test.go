package mics

import (
	"context"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestExactOverlineIsNoWin: x holds a8-d8 and f8, so e8 makes six: mics
// takes it at once as a win in freestyle; in standard gomoku it is no win,
// and mics must not report one.
func TestExactOverlineIsNoWin(t *testing.T) {
	for _, tc := range []struct {
		rules string
		win   bool
	}{{"gomoku", true}, {"gomoku-standard", false}} {
		pos := testpos.Of(t, tc.rules, "a8 a1 b8 c1 c8 e1 d8 g1 f8 j1")
		r := pos.Rules()
		s, _ := New(r, Options{Seed: 1, Branching: 6, Depth: 2})
		won := false
		_, err := s.BestMove(context.Background(), pos, func(depth, score int, best engine.Move, _ int64) {
			won = won || score >= WinScore-2 && depth == 1
		})
		if err != nil {
			t.Fatal(err)
		}
		if won != tc.win {
			t.Errorf("%s: reported a win at once: %v, want %v", tc.rules, won, tc.win)
		}
	}
}

// TestRenjuWhiteUsesFouls: black holds f8 g8 h9 h10, so h8 is a double
// three, forbidden to black; white (to move) holds e5 f6 g7 between black's
// c3 and j9, so d4 makes a four whose only five is at h8, which black may
// not block: mics, as white, reports the win in renju, not in freestyle
// (where black blocks at h8).
func TestRenjuWhiteUsesFouls(t *testing.T) {
	for _, rs := range []string{"renju", "gomoku"} {
		pos := testpos.Of(t, rs, "f8 e5 g8 f6 h9 g7 h10 a15 c3 a13 j9")
		r := pos.Rules()
		s, _ := New(r, Options{Seed: 1, Branching: 8, Depth: 3})
		won := false
		_, err := s.BestMove(context.Background(), pos, func(depth, score int, best engine.Move, _ int64) {
			won = won || score >= WinScore-3
		})
		if err != nil {
			t.Fatal(err)
		}
		if won != (rs == "renju") {
			t.Errorf("%s: white reported a win within 3 plies: %v", rs, won)
		}
	}
}
