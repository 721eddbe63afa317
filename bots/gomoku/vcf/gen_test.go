package vcf

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/kinrow/kinrow/bots/gomoku/board"
	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/bots/pndb/dbsearch"
	"github.com/kinrow/kinrow/engine"
)

// randomPosition plays plies random moves near the centre (each within two
// of a stone), stopping before the game ends.
func randomPosition(r engine.Rules, rng *rand.Rand, plies int) *engine.Position {
	pos := engine.NewPosition(r)
	pos.Play(engine.Move(r.Rows/2*r.Cols + r.Cols/2))
	for pos.Ply() < plies {
		var near []engine.Move
		for _, m := range pos.LegalMoves(nil) {
			if testpos.Near(pos, int(m)/r.Cols, int(m)%r.Cols, 2) {
				near = append(near, m)
			}
		}
		if len(near) == 0 {
			break
		}
		m := near[rng.IntN(len(near))]
		pos.Play(m)
		if pos.Result() != engine.Open {
			pos.Undo()
			break
		}
	}
	return pos
}

// TestGeneratePuzzles prints positions where the side to move has a VCF
// (proved by refVCF and confirmed by pndb's dbsearch) for the puzzle
// table; run with KINROW_GEN_PUZZLES=1.
func TestGeneratePuzzles(t *testing.T) {
	if os.Getenv("KINROW_GEN_PUZZLES") == "" {
		t.Skip("set KINROW_GEN_PUZZLES=1 to print new puzzle positions")
	}
	for _, rs := range []string{"mnk:15x15x5", "gomoku-standard", "renju"} {
		r, _ := engine.ParseRules(rs)
		rng := rand.New(rand.NewPCG(7, uint64(len(rs))))
		db, _ := dbsearch.New(r, dbsearch.Options{MaxNodes: 20000, MaxSequences: 32})
		found := 0
		for i := 0; i < 3000 && found < 6; i++ {
			pos := randomPosition(r, rng, 14+rng.IntN(16))
			a := pos.ToMove()
			if len(pos.LegalMoves(nil)) == 0 {
				continue
			}
			b := board.New(r)
			for _, m := range pos.Moves(nil) {
				b.Play(b.Index(m))
			}
			s := New(b)
			// Only non-trivial ones: no five, no forced block, a VCF of 3+ fours.
			if refVCF(pos, a, 2) || !refVCF(pos, a, 5) {
				continue
			}
			var res dbsearch.Result
			if db != nil { // dbsearch proves freestyle only
				res, _ = db.Search(context.Background(), pos, a)
			}
			got := s.VCF(context.Background(), a, 5, 1<<20)
			t.Logf("{%q, %q, true}, // db %v ours %v", rs, r.FormatMoveList(pos.Moves(nil)), res.Win, got >= 0)
			found++
		}
	}
}

// TestGenerateVCTPuzzles prints freestyle positions where the side to move
// has no VCF within six fours and pndb's dbsearch proves a threat win, for
// the VCT puzzle table; run with KINROW_GEN_PUZZLES=1.
func TestGenerateVCTPuzzles(t *testing.T) {
	if os.Getenv("KINROW_GEN_PUZZLES") == "" {
		t.Skip("set KINROW_GEN_PUZZLES=1 to print new puzzle positions")
	}
	r, _ := engine.ParseRules("mnk:15x15x5")
	rng := rand.New(rand.NewPCG(9, 27))
	db, _ := dbsearch.New(r, dbsearch.Options{MaxNodes: 50000, MaxSequences: 64})
	found := 0
	for i := 0; i < 4000 && found < 12; i++ {
		pos := randomPosition(r, rng, 12+rng.IntN(20))
		a := pos.ToMove()
		if pos.Result() != engine.Open || refVCF(pos, a, 6) || refVCF(pos, a.Other(), 1) {
			continue
		}
		res, _ := db.Search(context.Background(), pos, a)
		if !res.Win {
			continue
		}
		b := board.New(r)
		for _, m := range pos.Moves(nil) {
			b.Play(b.Index(m))
		}
		got := New(b).VCT(context.Background(), a, 6, 1<<21)
		t.Logf("{%q, %q}, // db first %s, ours %v", "mnk:15x15x5", r.FormatMoveList(pos.Moves(nil)), r.FormatMove(engine.Move(res.First)), got >= 0)
		found++
	}
}
