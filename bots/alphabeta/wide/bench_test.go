package wide

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/search"
	"github.com/kinrow/kinrow/engine"
)

// benchBoards are the sizes of the search benchmarks, each with a middle
// game position from randomOpening.
var benchBoards = []struct {
	rows, cols, k, plies int
}{
	{38, 58, 12, 120},
	{8, 9, 5, 16},
}

func benchMoves(b *testing.B, rows, cols, k, plies int) []int {
	r, err := engine.NewRules(engine.ConnectX, rows, cols, k)
	if err != nil {
		b.Fatal(err)
	}
	return randomOpening(rand.New(rand.NewPCG(11, 12)), r, plies)
}

// BenchmarkPlayUndo: one Play and Undo of every column in turn, in a
// middle game of 38x58x12.
func BenchmarkPlayUndo(b *testing.B) {
	board, _ := NewBoard(38, 58, 12)
	for _, m := range benchMoves(b, 38, 58, 12, 200) {
		board.Play(m)
	}
	b.ReportAllocs()
	c := 0
	for b.Loop() {
		board.Play(c)
		board.Undo()
		if c++; c == board.cols {
			c = 0
		}
	}
}

// BenchmarkWinCells: the winning cells a move would create (the ordering's
// threat count), every column in turn, middle game of 38x58x12.
func BenchmarkWinCells(b *testing.B) {
	board, _ := NewBoard(38, 58, 12)
	for _, m := range benchMoves(b, 38, 58, 12, 200) {
		board.Play(m)
	}
	b.ReportAllocs()
	c, sink := 0, 0
	for b.Loop() {
		sink += board.scan(board.ply&1, c, board.height[c], false)
		if c++; c == board.cols {
			c = 0
		}
	}
	_ = sink
}

// BenchmarkEvaluate: the horizon evaluation of 38x58x12 positions with
// winning cells on the board (the end of band games, before the win) and
// without (a random middle game: the window sums only).
func BenchmarkEvaluate(b *testing.B) {
	r, _ := engine.NewRules(engine.ConnectX, 38, 58, 12)
	rng := rand.New(rand.NewPCG(13, 14))
	threats, _ := NewBoard(38, 58, 12)
	for len(threats.set) == 0 {
		threats.Reset()
		p := engine.NewPosition(r)
		g := newBandGame(rng, r.Cols, r.K)
		for p.Result() == engine.Open {
			m := g.pick(p)
			p.Play(m)
			threats.Play(int(m))
		}
		threats.Undo()
	}
	quiet, _ := NewBoard(38, 58, 12)
	for _, m := range benchMoves(b, 38, 58, 12, 200) {
		quiet.Play(m)
	}
	for _, tc := range []struct {
		name  string
		board *Board
	}{{"threats", threats}, {"quiet", quiet}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var sink int32
			for b.Loop() {
				sink += tc.board.evaluate()
			}
			_ = sink
		})
	}
}

// BenchmarkSearch: a fixed-depth search of a middle game position, the
// table cleared each time; reports nodes/s.
func BenchmarkSearch(b *testing.B) {
	for _, bb := range benchBoards {
		depth := 4
		if bb.cols < 20 {
			depth = 9
		}
		b.Run(fmt.Sprintf("%dx%dx%d/depth%d", bb.rows, bb.cols, bb.k, depth), func(b *testing.B) {
			moves := benchMoves(b, bb.rows, bb.cols, bb.k, bb.plies)
			s, _ := New(bb.rows, bb.cols, bb.k, 16)
			if err := s.load(moves); err != nil {
				b.Fatal(err)
			}
			s.start(context.Background())
			s.negamax(depth, 0, -inf, inf) // warm the move buffers
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				s.tt.clear()
				s.start(context.Background())
				s.negamax(depth, 0, -inf, inf)
				nodes += s.nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkMove100ms: one 100 ms move of this package's BestMove and of
// package search's (the general searcher on engine's board) on the same
// positions: depth reached and nodes/s.
func BenchmarkMove100ms(b *testing.B) {
	for _, bb := range benchBoards {
		name := fmt.Sprintf("%dx%dx%d", bb.rows, bb.cols, bb.k)
		r, _ := engine.NewRules(engine.ConnectX, bb.rows, bb.cols, bb.k)
		b.Run("wide/"+name, func(b *testing.B) {
			moves := benchMoves(b, bb.rows, bb.cols, bb.k, bb.plies)
			s, _ := New(bb.rows, bb.cols, bb.k, 64)
			s.SetBranching(16) // as the bot plays, and as package search does
			var depth int
			var nodes uint64
			for b.Loop() {
				b.StopTimer()
				s.Reset()
				b.StartTimer()
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				rep, err := s.BestMove(ctx, moves, func(r Report) { depth = r.Depth })
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				_ = rep
				nodes += s.Nodes()
			}
			b.ReportMetric(float64(depth), "depth")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
		b.Run("search/"+name, func(b *testing.B) {
			moves := benchMoves(b, bb.rows, bb.cols, bb.k, bb.plies)
			p := engine.NewPosition(r)
			for _, m := range moves {
				p.Play(engine.Move(m))
			}
			var depth int
			var nodes uint64
			for b.Loop() {
				b.StopTimer()
				s, _ := search.New(r, search.Options{TTMiB: 64})
				b.StartTimer()
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				_, _, err := s.BestMove(ctx, p, func(r search.Report) { depth = r.Depth })
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				nodes += s.Nodes()
			}
			b.ReportMetric(float64(depth), "depth")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
