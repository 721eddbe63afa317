package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestScoreMatchesSolver: Score puts proved values on the 64-bit solver's
// scale, floor((R·C+1)/2) + 1 − the winner's stones, on boards with an odd
// number of cells too (where R·C/2 + 1 would be one short), for random
// positions of each board, wins and losses alike.
func TestScoreMatchesSolver(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"connectx:3x3x3", "connectx:3x5x3", "connectx:5x3x3", "connectx:4x4x3", "connectx:3x4x3"} {
		t.Run(spec, func(t *testing.T) {
			r := testpos.Rules(t, spec)
			sv, err := solver.New(r.Rows, r.Cols, r.K, 4)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(r.Cells()), 7))
			checked := 0
			for i := 0; i < 40; i++ {
				pos := engine.NewPosition(r)
				for n := rng.IntN(6); n > 0 && pos.Result() == engine.Open; n-- {
					legal := pos.LegalMoves(nil)
					pos.Play(legal[rng.IntN(len(legal))])
				}
				if pos.Result() != engine.Open {
					continue
				}
				s, err := New(r, Options{TTMiB: 4})
				if err != nil {
					t.Fatal(err)
				}
				v, err := s.Value(ctx, pos)
				if err != nil {
					t.Fatal(err)
				}
				p := sv.NewPosition()
				for _, m := range pos.Moves(nil) {
					p.Play(int(m))
				}
				want, err := sv.Solve(ctx, p, false)
				if err != nil {
					t.Fatal(err)
				}
				if got := Score(pos, v); got != want {
					t.Errorf("%s after %s: Score %d, solver %d", spec, r.FormatMoveList(pos.Moves(nil)), got, want)
				}
				checked++
			}
			if checked < 20 {
				t.Errorf("only %d open positions checked", checked)
			}
		})
	}
}
