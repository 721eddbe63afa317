package search

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestExactOverlineIsNoWin: x holds a8-d8 and f8, so e8 makes six: a win
// at once in freestyle, none in standard gomoku, where the searcher must
// not score it as one.
func TestExactOverlineIsNoWin(t *testing.T) {
	for _, tc := range []struct {
		rules string
		win   bool
	}{{"gomoku", true}, {"gomoku-standard", false}} {
		pos := testpos.Of(t, tc.rules, "a8 a1 b8 c1 c8 e1 d8 g1 f8 j1")
		r := pos.Rules()
		s, _ := New(r, Options{TTMiB: 4, MaxBranch: 8})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, rep, err := s.BestMove(ctx, pos, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if won := rep.Score > Proven && rep.Depth <= 1; won != tc.win {
			t.Errorf("%s: score %d at depth %d; a win at once: %v, want %v", tc.rules, rep.Score, rep.Depth, won, tc.win)
		}
	}
}

// TestRenjuWhiteUsesFouls: black holds f8 g8 h9 h10, so h8 is a double
// three, forbidden to black; white (to move) holds e5 f6 g7 between black's
// c3 and j9, so d4 makes a four whose only five is at h8, which black may
// not block. The searcher, as white, proves the win in renju; in freestyle
// black blocks at h8 and the same search proves nothing.
func TestRenjuWhiteUsesFouls(t *testing.T) {
	for _, rs := range []string{"renju", "gomoku"} {
		renjuWhite(t, rs)
	}
}

func renjuWhite(t *testing.T, rs string) {
	pos := testpos.Of(t, rs, "f8 e5 g8 f6 h9 g7 h10 a15 c3 a13 j9")
	r := pos.Rules()
	h8, _ := r.ParseMove("h8")
	if pos.Play(mustMove(t, r, "d4")); rs == "renju" && pos.Foul(h8) != engine.DoubleThree {
		t.Fatalf("h8 is not a double three for black:\n%s", pos.Diagram())
	}
	pos.Undo()
	s, _ := New(r, Options{TTMiB: 4, MaxBranch: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, rep, err := s.BestMove(ctx, pos, nil)
	if err != nil {
		t.Fatal(err)
	}
	if won := rep.Score > Proven && rep.Depth <= 3; won != (rs == "renju") {
		t.Errorf("%s: white's score %d at depth %d (best %s); a win within 3 plies: %v", rs, rep.Score, rep.Depth, r.FormatMove(rep.Best), won)
	}
}

func mustMove(t *testing.T, r engine.Rules, s string) engine.Move {
	t.Helper()
	m, err := r.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
