package testpos

import (
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// Rules returns the rules named name (engine.ParseRules); it fails tb on
// an unknown name.
func Rules(tb testing.TB, name string) engine.Rules {
	tb.Helper()
	r, err := engine.ParseRules(name)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// Of returns the position after moves (a list ParseMoveList reads; empty
// for the empty board) under the rules named rules; it fails tb on an
// unknown rule, a move it cannot read or a move the rules refuse.
func Of(tb testing.TB, rules, moves string) *engine.Position {
	tb.Helper()
	r := Rules(tb, rules)
	p := engine.NewPosition(r)
	ms, err := r.ParseMoveList(moves)
	if err != nil {
		tb.Fatalf("%s moves %q: %v", rules, moves, err)
	}
	if err := p.PlayMoveList(ms); err != nil {
		tb.Fatalf("%s moves %q: %v", rules, moves, err)
	}
	return p
}

// Random plays up to plies random legal moves (one rng.IntN draw over
// LegalMoves a move) from the empty board of r. A move that ends the game
// is taken back and the walk stops there, as it does on a full board;
// ended reports either.
func Random(r engine.Rules, rng *rand.Rand, plies int) (pos *engine.Position, ended bool) {
	pos = engine.NewPosition(r)
	var moves []engine.Move
	for ; plies > 0; plies-- {
		moves = pos.LegalMoves(moves[:0])
		if len(moves) == 0 {
			return pos, true
		}
		pos.Play(moves[rng.IntN(len(moves))])
		if pos.Result() != engine.Open {
			pos.Undo()
			return pos, true
		}
	}
	return pos, false
}

// Near reports whether the cell at row, col has a stone of pos within dist
// rows and dist columns of it (its own cell included): where the moves of
// a real game cluster.
func Near(pos *engine.Position, row, col, dist int) bool {
	r := pos.Rules()
	for rr := max(0, row-dist); rr <= min(r.Rows-1, row+dist); rr++ {
		for cc := max(0, col-dist); cc <= min(r.Cols-1, col+dist); cc++ {
			if pos.At(rr, cc) != engine.Empty {
				return true
			}
		}
	}
	return false
}
