package pns

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestFastestWinAtOnce: X has a win in 1 (b3 completes c3 d3 e3, f3 being
// O's) and wins in 3 (an open three from c5 d5); the search plays the win
// in 1.
func TestFastestWinAtOnce(t *testing.T) {
	p := testpos.Of(t, "mnk:7x7x4", "c3 f3 d3 a7 e3 g7 c5 g1 d5")
	p.Undo() // X to move: X c3 d3 e3 c5, O f3 a7 g7 g1
	p.Play(mustMove(t, p, "d5"))
	p.Play(mustMove(t, p, "a1"))
	s, err := New(p.Rules(), Options{MemMiB: 16, MaxExpansions: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := s.Prove(context.Background(), p, Win); err != nil || o != Proved {
		t.Fatalf("outcome %v err %v", o, err)
	}
	m, proved := s.Best()
	if !proved {
		t.Fatalf("best %s not proved", p.Rules().FormatMove(m))
	}
	p.Play(m)
	if p.Result() != engine.WinFor(engine.X) {
		t.Errorf("best %s does not win at once: %v", p.Rules().FormatMove(m), p.Result())
	}
}

func mustMove(t *testing.T, p *engine.Position, s string) engine.Move {
	t.Helper()
	m, err := p.Rules().ParseMove(s)
	if err != nil || !p.Legal(m) {
		t.Fatalf("move %s: %v", s, err)
	}
	return m
}

// TestDepthAgainstExact: on random decided mnk:4x4x3 positions whose moves
// win (or lose) at different distances, the searcher's move is the fastest
// win (or the slowest loss) of a plain memoised negamax.
func TestDepthAgainstExact(t *testing.T) {
	r, _ := engine.ParseRules("mnk:4x4x3")
	rng := rand.New(rand.NewPCG(3, 4))
	memo := map[uint64]exact{}
	s, err := New(r, Options{MemMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	wins, losses := 0, 0
	for it := 0; it < 400 && (wins < 40 || losses < 20); it++ {
		p := engine.NewPosition(r)
		for n := 5 + rng.IntN(r.Cells()/2-4); n > 0 && p.Result() == engine.Open; n-- {
			ms := p.LegalMoves(nil)
			p.Play(ms[rng.IntN(len(ms))])
		}
		if p.Result() != engine.Open {
			continue
		}
		want := solveExact(p, memo)
		if want.v == 0 {
			continue
		}
		lo, hi := 1<<30, -1 // distances of the moves with the root's value
		for _, m := range p.LegalMoves(nil) {
			if c := moveExact(p, m, memo); c.v == want.v {
				lo, hi = min(lo, c.d), max(hi, c.d)
			}
		}
		if lo == hi {
			continue // every move is as fast (or slow): nothing to choose
		}
		goal, wantO := Win, Proved
		if want.v < 0 {
			goal, wantO = NotLose, Disproved
			losses++
		} else {
			wins++
		}
		s.Reset() // each position on its own, as in a first move
		o, err := s.Prove(context.Background(), p, goal)
		if err != nil || o != wantO {
			t.Fatalf("%s: %v %v, want %v", r.FormatMoveList(p.Moves(nil)), o, err, wantO)
		}
		m, _ := s.Best()
		if got := moveExact(p, m, memo); got != want {
			t.Errorf("%s: best %s is %+v, want %+v", r.FormatMoveList(p.Moves(nil)), r.FormatMove(m), got, want)
		}
	}
	if wins < 10 || losses < 10 {
		t.Errorf("only %d wins and %d losses checked", wins, losses)
	}
	t.Logf("%d wins, %d losses with moves at different distances", wins, losses)
}
