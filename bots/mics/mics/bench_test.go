package mics

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// cells4900 are the candidates of a 70×70 board with random keys.
func cells4900() []Candidate {
	rng := rand.New(rand.NewPCG(13, 14))
	src := make([]Candidate, 70*70)
	for i := range src {
		src[i] = Candidate{Key: rng.Int64N(1 << 40), Cell: int32(i)}
	}
	return src
}

// BenchmarkHeapSelect10of4900 picks the best 10 of 4,900 cells by heap-select.
func BenchmarkHeapSelect10of4900(b *testing.B) {
	src := cells4900()
	dst := make([]Candidate, 0, 10)
	b.ReportAllocs()
	for b.Loop() {
		dst = HeapSelect(dst, src, 10)
	}
}

// BenchmarkSortAll4900 sorts the same 4,900 cells (copied first, as sorting
// in place would sort sorted data the next time).
func BenchmarkSortAll4900(b *testing.B) {
	src := cells4900()
	buf := make([]Candidate, len(src))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, src)
		slices.SortFunc(buf, cmpCandidates)
	}
}

// BenchmarkMarkUnmark marks and unmarks one cell (one op) in a middle-game
// position, with the incremental window update.
func BenchmarkMarkUnmark(b *testing.B) {
	for _, tc := range []struct {
		rules string
		plies int
	}{{"gomoku", 40}, {"gomoku-standard", 40}, {"renju", 40}, {"mnk:70x70x10", 200}, {"mnk:70x70x10:exact", 200}} {
		b.Run(tc.rules, func(b *testing.B) {
			pos := randomPosition(b, tc.rules, tc.plies, 1)
			bd := NewBoard(pos.Rules())
			bd.Load(pos)
			free := slices.Clone(bd.Free())
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				bd.Mark(int(free[i]))
				bd.Unmark()
				if i++; i == len(free) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkSearchNodes runs 50 ms searches (Options.MoveTime, so that the
// loop creates no context) on a middle-game position and reports the nodes
// searched per second; allocs/op covers the whole BestMove.
func BenchmarkSearchNodes(b *testing.B) {
	for _, tc := range []struct {
		rules string
		plies int
	}{{"gomoku", 20}, {"gomoku-standard", 20}, {"renju", 20}, {"mnk:70x70x10", 60}, {"connect4", 6}, {"connectx:38x58x12", 100}} {
		b.Run(tc.rules, func(b *testing.B) {
			pos := randomPosition(b, tc.rules, tc.plies, 3)
			s, err := New(pos.Rules(), Options{MoveTime: 50 * time.Millisecond})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			s.Calibrate(ctx, 50*time.Millisecond)
			var nodes int64
			var took time.Duration
			b.ReportAllocs()
			for b.Loop() {
				start := time.Now()
				if _, err := s.BestMove(ctx, pos, nil); err != nil {
					b.Fatal(err)
				}
				took += time.Since(start)
				nodes += s.Nodes()
			}
			b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
		})
	}
}
