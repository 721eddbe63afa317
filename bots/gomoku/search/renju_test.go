package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
)

// TestRenjuNoFoul plays renju games of the searcher against itself from
// random openings at 20 ms a move (no timing is asserted) and checks every
// black move with the engine's judge: never a double three, double four
// or overline; white's moves are legal too.
func TestRenjuNoFoul(t *testing.T) {
	r, _ := engine.ParseRules("renju")
	rng := rand.New(rand.NewPCG(27, 5))
	games, moves := 30, 0
	if testing.Short() {
		games = 2
	}
	s := [2]*Searcher{New(r, Options{TTBits: 16}), New(r, Options{TTBits: 16})}
	for g := 0; g < games; g++ {
		pos := engine.NewPosition(r)
		// A random opening of 4 to 8 plies near the centre.
		for n := 4 + rng.IntN(5); pos.Ply() < n && pos.Result() == engine.Open; {
			m := engine.Move((r.Rows/2-3+rng.IntN(7))*r.Cols + r.Cols/2 - 3 + rng.IntN(7))
			if pos.Legal(m) {
				pos.Play(m)
			}
		}
		for pos.Result() == engine.Open {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			m := s[pos.ToMove()].BestMove(ctx, pos, nil)
			cancel()
			if f := pos.Foul(m); f != engine.NoFoul {
				t.Fatalf("game %d: black played %s, a foul (%v)\n%s", g, r.FormatMove(m), f, pos.Diagram())
			}
			if err := pos.Apply(m); err != nil {
				t.Fatalf("game %d: %v\n%s", g, err, pos.Diagram())
			}
			moves++
		}
	}
	t.Logf("%d games, %d moves judged", games, moves)
}
