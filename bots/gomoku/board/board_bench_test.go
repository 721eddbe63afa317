package board

import (
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// midgame returns a board after a fixed 20-move opening.
func midgame(b testing.TB) *Board {
	r, err := engine.ParseRules("mnk:15x15x5")
	if err != nil {
		b.Fatal(err)
	}
	bd := New(r)
	ms, err := r.ParseMoveList("h8 h9 g8 j8 g9 g7 f10 e11 j10 f8 k9 h10 j9 l9 g10 h11 e10 d10 j11 j12")
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		bd.Play(bd.Index(m))
	}
	return bd
}

// BenchmarkPlayUndo is one incremental update of the patterns, classes,
// scores and totals, there and back.
func BenchmarkPlayUndo(b *testing.B) {
	bd := midgame(b)
	cands := bd.Candidates(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd.Play(cands[i%len(cands)])
		bd.Undo()
	}
}

// BenchmarkCandidates is the move generation of a middle-game node.
func BenchmarkCandidates(b *testing.B) {
	bd := midgame(b)
	buf := make([]int, 0, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = bd.Candidates(buf[:0])
	}
	_ = bd.Eval()
}
