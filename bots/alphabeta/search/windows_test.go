package search

import (
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// recountEval is the evaluation of pos from X's view recounted from the
// stones: every window of K cells worth weight[n] to the side with n stones
// in it and none of the opponent's, unless only exactly K wins for that
// side and one of its stones flanks the window (an overline is no win).
func recountEval(w *windows, pos *engine.Position) int32 {
	r := pos.Rules()
	at := func(row, col int) engine.Color {
		if row < 0 || row >= r.Rows || col < 0 || col >= r.Cols {
			return engine.Empty
		}
		return pos.At(row, col)
	}
	var eval int32
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		for row := 0; row < r.Rows; row++ {
			for col := 0; col < r.Cols; col++ {
				er, ec := row+(r.K-1)*dr, col+(r.K-1)*dc
				if er < 0 || er >= r.Rows || ec < 0 || ec >= r.Cols {
					continue
				}
				var n [2]int
				for j := 0; j < r.K; j++ {
					if c := at(row+j*dr, col+j*dc); c != engine.Empty {
						n[c]++
					}
				}
				for c := engine.X; c <= engine.O; c++ {
					if n[c] == 0 || n[c.Other()] != 0 {
						continue
					}
					if r.Line.ExactFor(c) && (at(row-dr, col-dc) == c || at(er+dr, ec+dc) == c) {
						continue
					}
					v := w.weight[n[c]]
					if c == engine.O {
						v = -v
					}
					eval += v
				}
			}
		}
	}
	return eval
}

// TestWindowsFollowTheLineRule plays random games forward and back under
// every line rule: the incremental evaluation equals a recount from the
// stones after every move and every undo.
func TestWindowsFollowTheLineRule(t *testing.T) {
	for _, rs := range []string{"gomoku", "gomoku-standard", "renju", "mnk:7x9x4:exact", "connectx:6x7x4:exact", "connect4"} {
		t.Run(rs, func(t *testing.T) {
			r, _ := engine.ParseRules(rs)
			s, err := New(r, Options{TTMiB: 1})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(rs))))
			var legal []engine.Move
			for step := 0; step < 600; step++ {
				if s.pos.Ply() > 0 && (s.pos.Result() != engine.Open || rng.IntN(4) == 0) {
					s.undo()
				} else {
					legal = s.pos.LegalMoves(legal[:0])
					s.play(legal[rng.IntN(len(legal))])
				}
				if got, want := s.win.eval, recountEval(s.win, s.pos); got != want {
					t.Fatalf("after %s: eval %d, recount %d", r.FormatMoveList(s.pos.Moves(nil)), got, want)
				}
			}
		})
	}
}
