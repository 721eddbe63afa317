package wide

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/search"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/engine"
)

// randomOpening plays up to n random moves and returns them: moves that
// neither win nor let the opponent win at once, so that the positions
// reached are not decided by a one-move tactic (it stops early when no
// such move is left).
func randomOpening(rng *rand.Rand, r engine.Rules, n int) []int {
	p := engine.NewPosition(r)
	var moves []int
	for len(moves) < n {
		var ok []engine.Move
		for _, m := range p.LegalMoves(nil) {
			if p.WinsAt(p.Cell(m), p.ToMove()) {
				continue
			}
			p.Play(m)
			safe := p.Result() == engine.Open
			for _, reply := range p.LegalMoves(nil) {
				if safe && p.WinsAt(p.Cell(reply), p.ToMove()) {
					safe = false
				}
			}
			p.Undo()
			if safe {
				ok = append(ok, m)
			}
		}
		if len(ok) == 0 {
			break
		}
		m := ok[rng.IntN(len(ok))]
		p.Play(m)
		moves = append(moves, int(m))
	}
	return moves
}

// TestSolveAgainstSolver compares Solve (exact and weak) and Analyze with
// package solver, an independent 64-bit implementation, on random
// positions of small boards (the bot sends these to solver; this checks
// the wide search's exactness where a reference exists).
func TestSolveAgainstSolver(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		plies         []int // opening lengths tried
	}{
		{4, 4, 3, []int{0, 1, 2, 3, 5, 8}},
		{4, 5, 4, []int{0, 2, 4, 6, 9}},
		{4, 6, 4, []int{0, 2, 5, 8}},
		{5, 5, 4, []int{0, 3, 6, 10}},
		{3, 7, 3, []int{0, 2, 4, 7}},
		{6, 7, 4, []int{16, 20, 24}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%dx%d", tc.rows, tc.cols, tc.k), func(t *testing.T) {
			r, _ := engine.NewRules(engine.ConnectX, tc.rows, tc.cols, tc.k)
			ref, err := solver.New(tc.rows, tc.cols, tc.k, 16)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(tc.rows, tc.cols, tc.k, 16)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(7, uint64(tc.rows*100+tc.cols)))
			ctx := context.Background()
			for _, n := range tc.plies {
				for rep := 0; rep < 2; rep++ {
					moves := randomOpening(rng, r, n)
					q := ref.NewPosition()
					for _, m := range moves {
						q.Play(m)
					}
					for _, weak := range []bool{false, true} {
						want, err := ref.Solve(ctx, q, weak)
						if err != nil {
							t.Fatal(err)
						}
						got, err := s.Solve(ctx, moves, weak)
						if err != nil || got != want {
							t.Fatalf("%v weak=%v: Solve %d, %v; solver %d", moves, weak, got, err, want)
						}
						wantA, err := ref.Analyze(ctx, q, weak)
						if err != nil {
							t.Fatal(err)
						}
						gotA, err := s.Analyze(ctx, moves, weak)
						if err != nil {
							t.Fatal(err)
						}
						for c := range wantA {
							if gotA[c] != wantA[c] && !(gotA[c] == Invalid && wantA[c] == solver.Invalid) {
								t.Fatalf("%v weak=%v: Analyze %v; solver %v", moves, weak, gotA, wantA)
							}
						}
					}
				}
			}
		})
	}
}

// TestSolveAgainstSearch compares exact scores of boards just past 64 bits
// with package search, the general searcher on engine's board, on the
// empty board and random positions: exact scores, odd boards included.
func TestSolveAgainstSearch(t *testing.T) {
	tests := []struct {
		rules string
		plies int
		reps  int
	}{
		{"connectx:8x8x3", 0, 1},
		{"connectx:10x7x3", 0, 1},
		{"connectx:8x8x4", 34, 3},
		{"connectx:10x7x4", 40, 2},
		{"connectx:9x7x4", 34, 3},
		{"connectx:7x11x5", 50, 3},
	}
	for _, tc := range tests {
		t.Run(tc.rules, func(t *testing.T) {
			r, err := engine.ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, uint64(len(tc.rules)+tc.plies)))
			ref, _ := search.New(r, search.Options{TTMiB: 16})
			s, _ := New(r.Rows, r.Cols, r.K, 16)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			reps := tc.reps
			if testing.Short() {
				reps = 1
			}
			for range reps {
				moves := randomOpening(rng, r, tc.plies)
				p := engine.NewPosition(r)
				for _, m := range moves {
					p.Play(engine.Move(m))
				}
				v, err := ref.Value(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				want := search.Score(p, v)
				got, err := s.Solve(ctx, moves, false)
				if err != nil || got != want {
					t.Fatalf("%v: Solve %d, %v; search %d", moves, got, err, want)
				}
				t.Logf("%d stones: score %d (wide %d nodes)", len(moves), got, s.Nodes())
			}
		})
	}
}

// TestBestMoveProofs: what BestMove claims as proved holds. Deepening on
// small boards reaches the end of the game, where the score is exact and
// must equal package solver's, with a best move of that very score; a
// forced win (also under forward pruning, where it rests on the one-move
// checks only) must be a win of at least the claimed score, by a winning
// move.
func TestBestMoveProofs(t *testing.T) {
	tests := []struct {
		rows, cols, k, branch int
	}{
		{4, 5, 4, 0}, {5, 5, 4, 0}, {4, 6, 4, 0}, {5, 6, 4, 3}, {6, 7, 4, 2},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%dx%d/branch%d", tc.rows, tc.cols, tc.k, tc.branch), func(t *testing.T) {
			r, _ := engine.NewRules(engine.ConnectX, tc.rows, tc.cols, tc.k)
			ref, _ := solver.New(tc.rows, tc.cols, tc.k, 16)
			s, _ := New(tc.rows, tc.cols, tc.k, 16)
			s.SetBranching(tc.branch)
			rng := rand.New(rand.NewPCG(9, uint64(tc.rows*100+tc.cols)))
			exact, wins := 0, 0
			for rep := 0; rep < 12; rep++ {
				moves := randomOpening(rng, r, r.Cells()/3+rng.IntN(r.Cells()/3))
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				rep, err := s.BestMove(ctx, moves, nil)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				q := ref.NewPosition()
				for _, m := range moves {
					q.Play(m)
				}
				want, _ := ref.Solve(context.Background(), q, false)
				scores, _ := ref.Analyze(context.Background(), q, false)
				if rep.Exact {
					exact++
					if rep.Score != want || scores[rep.Best] != want {
						t.Fatalf("%v: exact score %d with column %d; solver %d, column scores %v", moves, rep.Score, rep.Best, want, scores)
					}
				}
				if rep.Win {
					wins++
					if rep.Score <= 0 || want < rep.Score || scores[rep.Best] < rep.Score {
						t.Fatalf("%v: forced win of at least %d with column %d; solver %d, column scores %v", moves, rep.Score, rep.Best, want, scores)
					}
				}
			}
			t.Logf("%d exact, %d forced wins of 12", exact, wins)
		})
	}
}
