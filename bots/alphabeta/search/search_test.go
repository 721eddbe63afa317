package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestSolveSmallBoards proves known values from the empty board.
func TestSolveSmallBoards(t *testing.T) {
	tests := []struct {
		rules string
		want  int
		long  bool
	}{
		{"mnk:3x3x3", 0, false}, // tic-tac-toe: draw
		{"mnk:4x4x3", 1, false}, // first player wins
		{"mnk:4x4x4", 0, false}, // draw
		{"mnk:3x4x4", 0, false}, // draw
		{"connectx:4x4x4", 0, false},
		{"connectx:4x5x4", 0, true},
	}
	for _, tc := range tests {
		if tc.long && testing.Short() {
			continue
		}
		t.Run(tc.rules, func(t *testing.T) {
			r := testpos.Rules(t, tc.rules)
			s, err := New(r, Options{TTMiB: 16})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			v, m, err := s.Solve(context.Background(), engine.NewPosition(r))
			if err != nil {
				t.Fatal(err)
			}
			if v != tc.want {
				t.Errorf("%s: value %d, want %d", tc.rules, v, tc.want)
			}
			if !engine.NewPosition(r).Legal(m) {
				t.Errorf("%s: best move %d is not legal", tc.rules, m)
			}
			t.Logf("%s: value %d in %v, %d nodes", tc.rules, v, time.Since(start), s.Nodes())
		})
	}
}

func TestFindsWinAndBlock(t *testing.T) {
	r := testpos.Rules(t, "gomoku")
	for _, tc := range []struct {
		moves string
		want  string
	}{
		{"h8 a1 j8 a2 k8 a3 l8 b15", "g8"},  // x: h8 j8 k8 l8, open four: wins at g8 or m8
		{"a1 h8 b15 j8 c15 k8 o1 l8", "g8"}, // o threatens five: x must block (g8 or m8)
	} {
		list, _ := r.ParseMoveList(tc.moves)
		pos := engine.NewPosition(r)
		if err := pos.PlayMoveList(list); err != nil {
			t.Fatal(err)
		}
		s, _ := New(r, Options{TTMiB: 8})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		m, _, err := s.BestMove(ctx, pos, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		got := r.FormatMove(m)
		if got != tc.want && got != "m8" {
			t.Errorf("after %s: played %s, want g8 or m8", tc.moves, got)
		}
	}
}

func TestAnswersInTime(t *testing.T) {
	for _, rs := range []string{"mnk:3x3x3", "gomoku", "mnk:70x70x10", "connect4", "connectx:38x58x12", "mnk:128x128x5"} {
		r := testpos.Rules(t, rs)
		s, err := New(r, Options{TTMiB: 8})
		if err != nil {
			t.Fatal(err)
		}
		pos := engine.NewPosition(r)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 6 && pos.Result() == engine.Open; i++ {
			legal := pos.LegalMoves(nil)
			pos.Play(legal[rng.IntN(len(legal))])
		}
		if pos.Result() != engine.Open {
			continue
		}
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		m, _, err := s.BestMove(ctx, pos, nil)
		cancel()
		took := time.Since(start)
		if err != nil || !pos.Legal(m) {
			t.Errorf("%s: move %d, %v", rs, m, err)
		}
		// A search that ignores its deadline runs for seconds; other test
		// packages beside this one can add hundreds of milliseconds.
		if took > 100*time.Millisecond+time.Second {
			t.Errorf("%s: answered after %v with a 100 ms deadline", rs, took)
		}
	}
}

func TestWindowsMatchRecount(t *testing.T) {
	r := testpos.Rules(t, "mnk:9x9x4")
	s, _ := New(r, Options{TTMiB: 1})
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 30 && s.pos.Result() == engine.Open; i++ {
		legal := s.pos.LegalMoves(nil)
		s.play(legal[rng.IntN(len(legal))])
	}
	for i := 0; i < 10; i++ {
		s.undo()
	}
	fresh := newWindows(r)
	for _, m := range s.pos.Moves(nil) {
		q := engine.NewPosition(r)
		_ = q
		_ = m
	}
	replay := engine.NewPosition(r)
	for _, m := range s.pos.Moves(nil) {
		c := replay.ToMove()
		cell := replay.Cell(m)
		replay.Play(m)
		fresh.update(cell, c, 1)
	}
	if fresh.eval != s.win.eval {
		t.Errorf("incremental eval %d, recount %d", s.win.eval, fresh.eval)
	}
}

func BenchmarkSearchGomoku(b *testing.B) {
	r := testpos.Rules(b, "gomoku")
	s, _ := New(r, Options{TTMiB: 16})
	pos := engine.NewPosition(r)
	list, _ := r.ParseMoveList("h8 h9 j8 g7 j9 j10")
	pos.PlayMoveList(list)
	b.ReportAllocs()
	start := s.Nodes()
	t0 := time.Now()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		s.BestMove(ctx, pos, nil)
		cancel()
	}
	b.ReportMetric(float64(s.Nodes()-start)/time.Since(t0).Seconds(), "nodes/s")
}

// TestStoppedSolveIsAnError: a solve cut by its deadline returns an error,
// never a value, however the deadline is noticed (the searcher checks the
// clock itself, which can see the deadline pass before the context does).
func TestStoppedSolveIsAnError(t *testing.T) {
	r, err := engine.ParseRules("connectx:8x8x4")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(r, Options{TTMiB: 8})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		pos := engine.NewPosition(r)
		pos.Play(engine.Move(i % 8))
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i)*time.Millisecond)
		v, err := s.Value(ctx, pos)
		cancel()
		if err == nil {
			t.Fatalf("8x8 Connect-X solved in %d ms: value %d", 1+i, v)
		}
	}
}

// TestReportNodesPerCall: a search report counts the nodes of its own
// call, not every node since the searcher was made (a move that hit the
// table reported billions of nodes in 0 ms). Tic-tac-toe is proved within
// the call, so each call ends; the second, on a warm table, searches no
// more than the first.
func TestReportNodesPerCall(t *testing.T) {
	r := testpos.Rules(t, "mnk:3x3x3")
	s, err := New(r, Options{TTMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	pos := engine.NewPosition(r)
	var last [2]Report
	for call := range last {
		_, rep, err := s.BestMove(context.Background(), pos, func(Report) {})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Exact || rep.Nodes == 0 {
			t.Fatalf("call %d: report %+v, want an exact result and its nodes", call+1, rep)
		}
		last[call] = rep
	}
	if last[1].Nodes > last[0].Nodes {
		t.Errorf("second call reports %d nodes, the first %d: the count runs on across calls", last[1].Nodes, last[0].Nodes)
	}
}
