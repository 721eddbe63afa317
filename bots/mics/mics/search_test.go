package mics

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// randomPosition plays about plies random moves on the empty board of rules,
// never ending the game.
func randomPosition(t testing.TB, rules string, plies int, seed uint64) *engine.Position {
	t.Helper()
	r := testpos.Rules(t, rules)
	pos := engine.NewPosition(r)
	rng := rand.New(rand.NewPCG(seed, 9))
	var legal []engine.Move
	for tries := 0; pos.Ply() < plies && tries < 4*plies; tries++ {
		legal = pos.LegalMoves(legal[:0])
		if len(legal) <= 1 {
			break
		}
		pos.Play(legal[rng.IntN(len(legal))])
		if pos.Result() != engine.Open {
			pos.Undo()
		}
	}
	return pos
}

func TestOptionsRange(t *testing.T) {
	r := engine.Connect4()
	tests := []struct {
		o    Options
		want string
	}{
		{Options{Branching: 65}, "branching=65 out of range 1..64"},
		{Options{Branching: -1}, "branching=-1 out of range 1..64"},
		{Options{Depth: 65}, "depth=65 out of range 1..64"},
		{Options{Depth: -3}, "depth=-3 out of range 1..64"},
	}
	for _, tc := range tests {
		if _, err := New(r, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error with %q", tc.o, err, tc.want)
		}
	}
	if _, err := New(r, Options{Branching: 64, Depth: 64, Seed: 3}); err != nil {
		t.Errorf("New with the largest options: %v", err)
	}
}

// TestBestMoveLegalInTime asks for moves at 100 ms on positions of every
// board size the bot must play: each must be legal and come within the
// deadline plus 20 ms.
func TestBestMoveLegalInTime(t *testing.T) {
	const moveTime, slack = 100 * time.Millisecond, time.Second // slack: a loaded 2-core machine; a bot that ignores its deadline takes far longer
	tests := []struct {
		rules string
		plies []int
	}{
		{"tictactoe", []int{0, 1, 4, 7}},
		{"gomoku", []int{0, 1, 30, 150}},
		{"mnk:70x70x10", []int{0, 1, 60, 2500}},
		{"connect4", []int{0, 5, 30, 40}},
		{"connectx:38x58x12", []int{0, 1, 200, 2000}},
	}
	if testing.Short() {
		tests = tests[:2]
	}
	for _, tc := range tests {
		r := testpos.Rules(t, tc.rules)
		s, err := New(r, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i, plies := range tc.plies {
			pos := randomPosition(t, tc.rules, plies, uint64(i))
			hash := pos.Hash()
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), moveTime)
			m, err := s.BestMove(ctx, pos, nil)
			took := time.Since(start)
			cancel()
			if err != nil {
				t.Fatalf("%s after %d plies: %v", tc.rules, pos.Ply(), err)
			}
			if err := pos.Check(m); err != nil {
				t.Errorf("%s after %d plies: illegal move %d: %v", tc.rules, pos.Ply(), m, err)
			}
			if took > moveTime+slack {
				t.Errorf("%s after %d plies: answered in %v, deadline %v", tc.rules, pos.Ply(), took, moveTime)
			}
			if pos.Hash() != hash {
				t.Errorf("%s: BestMove changed the position", tc.rules)
			}
			t.Logf("%s ply %d: %s in %v, %d nodes, %.0f nodes/s", tc.rules, pos.Ply(), r.FormatMove(m), took.Round(time.Millisecond), s.Nodes(), s.NodesPerSecond())
		}
	}
}

// TestBestMoveTactics: take a win, block a win, make an open four.
func TestBestMoveTactics(t *testing.T) {
	far := [][2]int{{0, 0}, {0, 14}, {14, 0}, {14, 14}}
	tests := []struct {
		name   string
		rules  string
		xs, os [][2]int
		extra  [][2]int // played after, alternating from the side to move
		want   [][2]int // any of these
	}{
		{"win", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 5}, {7, 6}}, far, nil, [][2]int{{7, 2}, {7, 7}}},
		{"block", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 5}, {7, 6}}, [][2]int{{0, 0}, {0, 14}, {14, 0}}, nil, [][2]int{{7, 2}, {7, 7}}},
		{"block three", "gomoku", [][2]int{{7, 4}, {7, 5}, {7, 6}}, [][2]int{{0, 0}, {0, 14}}, nil, [][2]int{{7, 3}, {7, 7}, {7, 2}, {7, 8}}},
		{"connect4 win", "connect4", [][2]int{{0, 0}, {1, 0}, {2, 0}}, [][2]int{{0, 1}, {1, 1}, {0, 2}}, nil, [][2]int{{3, 0}}},
		{"connect4 block", "connect4", [][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 6}}, [][2]int{{0, 1}, {1, 1}, {0, 2}}, nil, [][2]int{{3, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := testpos.Rules(t, tc.rules)
			pos := engine.NewPosition(r)
			for i, x := range tc.xs {
				if err := pos.Apply(engine.Move(moveAt(r, x))); err != nil {
					t.Fatal(err)
				}
				if i < len(tc.os) {
					if err := pos.Apply(engine.Move(moveAt(r, tc.os[i]))); err != nil {
						t.Fatal(err)
					}
				}
			}
			s, err := New(r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			m, err := s.BestMove(ctx, pos, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if int(m) == moveAt(r, w) {
					return
				}
			}
			t.Errorf("played %s, want one of %v\n%s", r.FormatMove(m), tc.want, pos.Diagram())
		})
	}
}

// moveAt returns the move for (row, col): the column on Connect-X.
func moveAt(r engine.Rules, rc [2]int) int {
	if r.Kind == engine.ConnectX {
		return rc[1]
	}
	return rc[0]*r.Cols + rc[1]
}

// TestSolvesTicTacToe: with the search full width, tic-tac-toe is a draw
// against itself.
func TestSolvesTicTacToe(t *testing.T) {
	r := testpos.Rules(t, "tictactoe")
	s, _ := New(r, Options{})
	pos := engine.NewPosition(r)
	for pos.Result() == engine.Open {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		m, err := s.BestMove(ctx, pos, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(m)
	}
	if pos.Result() != engine.Draw {
		t.Errorf("self-play of tic-tac-toe: %s, want a draw\n%s", pos.Result().Describe(), pos.Diagram())
	}
}

func TestBestMoveAllocatesNothing(t *testing.T) {
	r := testpos.Rules(t, "gomoku")
	s, _ := New(r, Options{MoveTime: 3 * time.Millisecond})
	pos := randomPosition(t, "gomoku", 20, 1)
	ctx := context.Background()
	if _, err := s.BestMove(ctx, pos, nil); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(5, func() { s.BestMove(ctx, pos, nil) }); a != 0 {
		t.Errorf("BestMove: %v allocations, want 0", a)
	}
}

// TestCancel: a cancelled context stops the search at once with a legal move.
func TestCancel(t *testing.T) {
	r := testpos.Rules(t, "mnk:70x70x10")
	s, _ := New(r, Options{})
	s.Calibrate(context.Background(), 10*time.Millisecond)
	pos := randomPosition(t, "mnk:70x70x10", 100, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	m, err := s.BestMove(ctx, pos, nil)
	if err != nil || !pos.Legal(m) {
		t.Fatalf("BestMove after cancel: %v, %v", m, err)
	}
	if took := time.Since(start); took > 1200*time.Millisecond { // far from the 20 ms a loaded machine adds
		t.Errorf("BestMove took %v after its context was cancelled at 20 ms", took)
	}
}

// TestGomokuAgainstRandom plays a 20-game gomoku match against a uniformly
// random mover, colours alternating, and wants every game won. It runs at
// 20 ms per move to stay quick (KINROW_LONG=1: 100 ms, as the bot plays).
func TestGomokuAgainstRandom(t *testing.T) {
	moveTime := 20 * time.Millisecond
	if os.Getenv("KINROW_LONG") == "1" {
		moveTime = 100 * time.Millisecond
	}
	games := 20
	if testing.Short() {
		games = 4
	}
	r := testpos.Rules(t, "gomoku")
	rng := rand.New(rand.NewPCG(11, 12))
	var legal []engine.Move
	for g := 0; g < games; g++ {
		me := engine.Color(g & 1)
		s, err := New(r, Options{Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		s.Calibrate(context.Background(), moveTime)
		pos := engine.NewPosition(r)
		for pos.Result() == engine.Open {
			if pos.ToMove() == me {
				ctx, cancel := context.WithTimeout(context.Background(), moveTime)
				m, err := s.BestMove(ctx, pos, nil)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if err := pos.Apply(m); err != nil {
					t.Fatalf("game %d: %v", g, err)
				}
				continue
			}
			legal = pos.LegalMoves(legal[:0])
			pos.Play(legal[rng.IntN(len(legal))])
		}
		if pos.Result() != engine.WinFor(me) {
			t.Errorf("game %d (mics plays %v): %s\n%s", g, me, pos.Result().Describe(), pos.Diagram())
		}
		t.Logf("game %d: mics (%v) wins in %d plies", g, me, pos.Ply())
	}
}

// TestSelfPlayEveryShape plays whole games, the Searcher on both sides at a
// few milliseconds per move, on every board shape up to 5×5 with every K
// and on a few large ones: every move must be legal.
func TestSelfPlayEveryShape(t *testing.T) {
	var all []engine.Rules
	for _, kind := range []engine.Kind{engine.MNK, engine.ConnectX} {
		for rows := 1; rows <= 5; rows++ {
			for cols := 1; cols <= 5; cols++ {
				for k := 2; k <= max(rows, cols); k++ {
					all = append(all, engine.Rules{Kind: kind, Rows: rows, Cols: cols, K: k})
				}
			}
		}
	}
	if !testing.Short() {
		for _, s := range []string{"mnk:128x128x5", "mnk:128x128x128", "mnk:20x128x64", "connectx:128x128x4"} {
			all = append(all, testpos.Rules(t, s))
		}
	}
	for _, r := range all {
		s, err := New(r, Options{Seed: 7})
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		pos := engine.NewPosition(r)
		// Large boards: a few moves only.
		for pos.Result() == engine.Open && pos.Ply() < 30 {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Millisecond)
			m, err := s.BestMove(ctx, pos, nil)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			if err := pos.Apply(m); err != nil {
				t.Fatalf("%s after %d plies: %v\n%s", r, pos.Ply(), err, pos.Diagram())
			}
		}
	}
}

// TestStopKeepsReserve: the search plans to stop before the deadline by
// the reserve every kinrow bot keeps (sdk.Reserve, 40% of a second); it
// used to stop at 80% less 1 ms, and a stalled process then answered past
// the referee's grace.
func TestStopKeepsReserve(t *testing.T) {
	const moveTime = time.Second
	s, err := New(testpos.Rules(t, "gomoku"), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pos := randomPosition(t, "gomoku", 6, 1)
	ctx, cancel := context.WithTimeout(context.Background(), moveTime)
	defer cancel()
	deadline, _ := ctx.Deadline()
	if _, err := s.BestMove(ctx, pos, nil); err != nil {
		t.Fatal(err)
	}
	// Reserve(avail) is at least 40% of what was left when BestMove
	// started; 30% leaves room for a late start on a busy machine.
	if kept := deadline.Sub(s.stopAt); kept < moveTime*3/10 {
		t.Errorf("the search planned to stop %v before the deadline of a %v move; want at least %v", kept, moveTime, moveTime*3/10)
	}
}
