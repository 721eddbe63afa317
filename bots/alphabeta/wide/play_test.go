package wide

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testcpu"
)

// interleave returns the game where the first player plays xs and the
// second os, in turn; it checks on engine's Position that the moves are
// legal and nobody has won.
func interleave(t *testing.T, r engine.Rules, xs, os []int) []int {
	t.Helper()
	p := engine.NewPosition(r)
	var moves []int
	for i := 0; i < len(xs) || i < len(os); i++ {
		for _, side := range [][]int{xs, os} {
			if i >= len(side) {
				continue
			}
			m := engine.Move(side[i])
			if err := p.Apply(m); err != nil || p.Result() != engine.Open {
				t.Fatalf("move %d (column %d): %v, %v", len(moves)+1, m+1, err, p.Result())
			}
			moves = append(moves, side[i])
		}
	}
	return moves
}

func span(from, to, step int) []int {
	var s []int
	for c := from; c <= to; c += step {
		s = append(s, c)
	}
	return s
}

// TestTacticsOn38x58x12: on the largest board, immediate wins, forced
// blocks and two-move wins are found, and no move goes under the
// opponent's winning cell.
func TestTacticsOn38x58x12(t *testing.T) {
	r, _ := engine.NewRules(engine.ConnectX, 38, 58, 12)
	tests := []struct {
		name   string
		xs, os []int
		want   []int // acceptable moves
		avoid  []int // moves never to play
		win    bool  // a forced win must be proved
	}{
		// X: eleven in a row on the bottom row, open at both ends; O as
		// well. X to move wins at once.
		{name: "win", xs: span(10, 20, 1), os: span(40, 50, 1), want: []int{9, 21}, win: true},
		// O: eleven on the bottom row, open at column 40 only (X holds
		// 52); X has ten, no threat: X must block.
		{name: "block", xs: append(span(10, 19, 1), 52), os: span(41, 51, 1), want: []int{40}},
		// X: ten in a row open at both ends, O scattered: X makes eleven
		// with two open ends and wins in three plies.
		{name: "double threat", xs: span(10, 19, 1), os: span(30, 48, 2), want: []int{9, 20}, win: true},
		// O: eleven on row 2 over columns 41..51 (row 1 mixed), its
		// winning cells floating above the empty bottom cells of columns
		// 40 and 52; X must not play there.
		{name: "not under", xs: append(span(41, 51, 2), span(0, 18, 2)...), os: append(span(42, 50, 2), span(41, 51, 1)...),
			avoid: []int{40, 52}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.xs) != len(tc.os) {
				t.Fatalf("X to move needs as many X moves as O moves: %d, %d", len(tc.xs), len(tc.os))
			}
			moves := interleave(t, r, tc.xs, tc.os)
			s, err := New(r.Rows, r.Cols, r.K, 16)
			if err != nil {
				t.Fatal(err)
			}
			limit := 200 * time.Millisecond
			if tc.win {
				limit = 2 * time.Second // ends when the win is proved
			}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			rep, err := s.BestMove(ctx, moves, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !slices.Contains(tc.want, rep.Best) {
				t.Errorf("played column %d, want one of %v (report %+v)", rep.Best, tc.want, rep)
			}
			if slices.Contains(tc.avoid, rep.Best) {
				t.Errorf("played column %d, under the opponent's winning cell", rep.Best)
			}
			if tc.win && !rep.Win {
				t.Errorf("no forced win found: %+v", rep)
			}
			if rep.Win {
				xStones := (len(moves) + 1) / 2
				if len(moves)%2 == 1 {
					t.Fatalf("test position has the second player to move")
				}
				// The win takes X's next stone, or two: its score is
				// half+1 minus X's stones then.
				half := (r.Cells() + 1) / 2
				if rep.Score != half+1-(xStones+1) && rep.Score != half+1-(xStones+2) {
					t.Errorf("win score %d, want %d or %d", rep.Score, half-xStones, half-xStones-1)
				}
			}
			// The generator itself never offers a move under the
			// opponent's winning cell.
			if err := s.load(moves); err != nil {
				t.Fatal(err)
			}
			if w, n := s.moves(0); w < 0 {
				for _, c := range s.mv[0][:n] {
					if slices.Contains(tc.avoid, int(c)) {
						t.Errorf("generated column %d under the opponent's winning cell", c)
					}
				}
			}
		})
	}
}

// TestDeadline: a search on 38x58x12 given 100 ms (and 10 ms) answers in
// time with a legal move, from the empty board and from random middle
// games. A loaded machine (make test runs packages in parallel) can keep
// the process waiting past the deadline: the search is late only if it
// also spent more CPU time than the limit allows.
func TestDeadline(t *testing.T) {
	r, _ := engine.NewRules(engine.ConnectX, 38, 58, 12)
	s, err := New(r.Rows, r.Cols, r.K, 64)
	if err != nil {
		t.Fatal(err)
	}
	s.SetBranching(16)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, plies := range []int{0, 1, 40, 200, 800} {
		for _, limit := range []time.Duration{100 * time.Millisecond, 10 * time.Millisecond} {
			moves := randomOpening(rng, r, plies)
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			start, cpu0 := time.Now(), testcpu.Self(t)
			rep, err := s.BestMove(ctx, moves, nil)
			took, cpu := time.Since(start), testcpu.Self(t)-cpu0
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			checkLegal(t, r, moves, rep.Best)
			// 10 ms of slack: the clock is polled every 64 nodes.
			slack := 10 * time.Millisecond
			if took > limit+slack && cpu > limit+slack || took > limit+time.Second {
				t.Errorf("%d plies, limit %v: answered after %v (%v of CPU)", len(moves), limit, took, cpu)
			}
			t.Logf("%d plies, %v: depth %d, %d nodes in %v (%v of CPU)", len(moves), limit, rep.Depth, rep.Nodes, took.Round(time.Millisecond), cpu.Round(time.Millisecond))
		}
	}
}

// TestBadMoves: move lists that are not games are refused, and the
// searcher still works afterwards.
func TestBadMoves(t *testing.T) {
	s, err := New(3, 22, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		moves []int
	}{
		{"full column", []int{0, 0, 0, 0}},
		{"off the board", []int{22}},
		{"negative", []int{-1}},
		{"after a win", []int{0, 5, 1, 5, 2, 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.BestMove(context.Background(), tc.moves, nil); err == nil {
				t.Errorf("BestMove accepted %v", tc.moves)
			}
			if _, err := s.Solve(context.Background(), tc.moves, false); err == nil {
				t.Errorf("Solve accepted %v", tc.moves)
			}
			if _, err := s.Analyze(context.Background(), tc.moves, false); err == nil {
				t.Errorf("Analyze accepted %v", tc.moves)
			}
			// X wins at once with column 3 after 1, 2 (k = 3).
			rep, err := s.BestMove(context.Background(), []int{0, 5, 1, 5}, nil)
			if err != nil || rep.Best != 2 || !rep.Win {
				t.Errorf("after the bad list: %+v, %v; want the win at column 3", rep, err)
			}
		})
	}
	// A finished game: BestMove refuses it, Solve scores it.
	over := []int{0, 5, 1, 5, 2}
	if _, err := s.BestMove(context.Background(), over, nil); err == nil {
		t.Error("BestMove accepted a finished game")
	}
	half := (3*22 + 1) / 2
	if v, err := s.Solve(context.Background(), over, false); err != nil || v != -(half+1-3) {
		t.Errorf("Solve of a won game: %d, %v; want %d", v, err, -(half + 1 - 3))
	}
}

// TestOddSizes: boards at the limits (one row, one column, 64 rows, 128
// columns, k = 2 and k = 128) play legal moves within their time, and
// Solve either finishes (where it is quick) or stops in its time.
func TestOddSizes(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		solvable      bool // Solve of the empty board finishes at once
	}{
		{1, 70, 5, false}, {64, 1, 5, true}, {64, 128, 128, false}, {2, 40, 2, true},
		{64, 128, 4, false}, {3, 128, 12, false}, {64, 2, 64, false}, {1, 65, 2, true},
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%dx%d", tc.rows, tc.cols, tc.k), func(t *testing.T) {
			r, err := engine.NewRules(engine.ConnectX, tc.rows, tc.cols, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(tc.rows, tc.cols, tc.k, 4)
			if err != nil {
				t.Fatal(err)
			}
			s.SetBranching(16)
			for _, plies := range []int{0, min(r.Cells()/3, 200)} {
				moves := randomOpening(rng, r, plies)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				rep, err := s.BestMove(ctx, moves, nil)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				checkLegal(t, r, moves, rep.Best)
			}
			limit := 300 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			start, cpu0 := time.Now(), testcpu.Self(t)
			v, err := s.Solve(ctx, nil, true)
			took, cpu := time.Since(start), testcpu.Self(t)-cpu0
			switch {
			case tc.solvable && err != nil:
				t.Errorf("Solve: %v", err)
			case !tc.solvable && err == nil:
				t.Logf("solved after all: %d", v) // not wrong, only unexpected
			case err != nil && !errors.Is(err, context.DeadlineExceeded):
				t.Errorf("Solve: %v, want the deadline", err)
			}
			if took > limit+10*time.Millisecond && cpu > limit+10*time.Millisecond {
				t.Errorf("Solve answered after %v (%v of CPU) for %v", took, cpu, limit)
			}
			t.Logf("empty board: weak value %d, %v, in %v", v, err, took.Round(time.Millisecond))
		})
	}
}

// checkLegal fails t unless best, a column from 0, is a legal move after
// the columns moves on the engine's board.
func checkLegal(t *testing.T, r engine.Rules, moves []int, best int) {
	t.Helper()
	p := engine.NewPosition(r)
	for _, m := range moves {
		p.Play(engine.Move(m))
	}
	if !p.Legal(engine.Move(best)) {
		t.Errorf("%d plies: illegal move %d", len(moves), best)
	}
}
