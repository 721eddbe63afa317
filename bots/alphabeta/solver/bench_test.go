package solver

import (
	"context"
	"testing"
)

// benchSet solves the first n positions of a shared set per iteration, with
// the table cleared first so that every iteration does the same work.
func benchSet(b *testing.B, set string, n int, analyze, weak bool) {
	lines := sharedSet(b, set, n)
	s, err := New(6, 7, 4, DefaultTTMiB)
	if err != nil {
		b.Fatal(err)
	}
	pos := make([]Position, len(lines))
	for i, fl := range lines {
		pos[i] = s.NewPosition()
		if _, err := s.PlaySequence(&pos[i], fl[0]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		s.Reset()
		for _, p := range pos {
			if analyze {
				if _, err := s.Analyze(context.Background(), p, weak); err != nil {
					b.Fatal(err)
				}
			} else if _, err := s.Solve(context.Background(), p, weak); err != nil {
				b.Fatal(err)
			}
			nodes += s.Nodes()
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N)/float64(len(pos)), "nodes/pos")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkSolveL3R1(b *testing.B)   { benchSet(b, "L3_R1", 1000, false, false) }
func BenchmarkAnalyzeL3R1(b *testing.B) { benchSet(b, "L3_R1", 1000, true, false) }
func BenchmarkSolveL2R1(b *testing.B)   { benchSet(b, "L2_R1", 1000, false, false) }
func BenchmarkWeakL2R1(b *testing.B)    { benchSet(b, "L2_R1", 1000, false, true) }

// BenchmarkWinCells is the hot helper of every node: the cells where a
// side would complete four.
func BenchmarkWinCells(b *testing.B) {
	s, err := New(6, 7, 4, 1)
	if err != nil {
		b.Fatal(err)
	}
	p := s.NewPosition()
	if _, err := s.PlaySequence(&p, "4453323"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var sink uint64
	for b.Loop() {
		sink += s.g.winCells(p.cur, p.mask)
	}
	_ = sink
}

func BenchmarkAnalyzeL2R1(b *testing.B) { benchSet(b, "L2_R1", 1000, true, false) }

// BenchmarkSolveL1R1 covers the openings set, where the large table and
// the enhanced transposition cutoffs matter. Its 1 allocation per
// iteration (of 1000 positions) is the large table growing once.
func BenchmarkSolveL1R1(b *testing.B) { benchSet(b, "L1_R1", 1000, false, false) }

// BenchmarkSolveL1R3 solves the first 10 positions of the hardest shared
// set (each about a second), the set the goal against Pons names.
func BenchmarkSolveL1R3(b *testing.B) { benchSet(b, "L1_R3", 10, false, false) }

// BenchmarkWeakL1R1 and BenchmarkWeakL1R3 are the weak solves of the
// openings sets: far-off wins found by the probes (L1_R1), balanced
// openings by the window (-1, 1) (L1_R3; see narrow's weakNear).
func BenchmarkWeakL1R1(b *testing.B) { benchSet(b, "L1_R1", 1000, false, true) }
func BenchmarkWeakL1R3(b *testing.B) { benchSet(b, "L1_R3", 10, false, true) }
