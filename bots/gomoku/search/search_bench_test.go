package search

import (
	"context"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// BenchmarkSearchDepth8 is a depth-8 search of a middle-game position.
func BenchmarkSearchDepth8(b *testing.B) {
	r, _ := engine.ParseRules("mnk:15x15x5")
	pos := engine.NewPosition(r)
	ms, _ := r.ParseMoveList("h8 h9 g8 j8 g9 g7 f10 e11 j10 f8")
	for _, m := range ms {
		pos.Play(m)
	}
	b.ReportAllocs()
	var nodes int64
	for i := 0; i < b.N; i++ {
		s := New(r, Options{MaxDepth: 8, NoDB: true, TTBits: 16})
		s.BestMove(context.Background(), pos, func(p Progress) { nodes = p.Nodes })
	}
	b.ReportMetric(float64(nodes), "nodes")
}
