package sdk

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

func TestMoveShare(t *testing.T) {
	connect4 := engine.Connect4() // 42 cells
	tictactoe, err := engine.ParseRules("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	gomoku, err := engine.ParseRules("gomoku")
	if err != nil {
		t.Fatal(err)
	}
	s := time.Second
	tests := []struct {
		name  string
		rules engine.Rules
		ply   int
		tc    botapi.TimeControl
		left  time.Duration
		want  time.Duration
	}{
		{"fixed time per move: all of it", connect4, 0, botapi.TimeControl{MoveTime: s}, s, s},
		{"untimed: all of it", connect4, 10, botapi.TimeControl{}, 3 * s, 3 * s},
		{"main time, empty board: 21 moves left", connect4, 0, botapi.TimeControl{Main: 21 * s}, 21 * s, s},
		{"main time, ply 10: 16 moves left", connect4, 10, botapi.TimeControl{Main: 60 * s}, 32 * s, 2 * s},
		{"at least 8 moves", tictactoe, 0, botapi.TimeControl{Main: 60 * s}, 8 * s, s},
		{"increment added", connect4, 0, botapi.TimeControl{Main: 10 * s, Increment: 100 * time.Millisecond}, 21 * s, s + 100*time.Millisecond},
		{"never more than left", tictactoe, 2, botapi.TimeControl{Main: s, Increment: 5 * s}, 2 * s, 2 * s},
		{"byo-yomi only", gomoku, 0, botapi.TimeControl{Byo: 30 * s, ByoStones: 5}, 224 * s, 2 * s}, // 112 moves left,
		{"no time left", connect4, 0, botapi.TimeControl{Main: s, Increment: s}, 0, 0},
		{"past the deadline", connect4, 0, botapi.TimeControl{Main: s, Increment: s}, -s, -s},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := engine.NewPosition(tc.rules)
			for pos.Ply() < tc.ply {
				pos.Play(pos.LegalMoves(nil)[pos.Ply()%3])
			}
			if pos.Ply() != tc.ply || pos.Result() != engine.Open {
				t.Fatalf("set-up: ply %d, %v", pos.Ply(), pos.Result())
			}
			if got := MoveShare(tc.tc, tc.left, pos); got != tc.want {
				t.Errorf("MoveShare(%+v, %v, ply %d of %d cells) = %v, want %v", tc.tc, tc.left, tc.ply, tc.rules.Cells(), got, tc.want)
			}
		})
	}
}

func TestMoveClockOfAnotherContext(t *testing.T) {
	if c, ok := MoveClockOf(context.Background()); ok || c != (MoveClock{}) {
		t.Errorf("MoveClockOf(Background) = %+v, %v", c, ok)
	}
}

// TestWithMoveShare: under a game clock the context ends at the move's
// share of the time left; with a time per move, or no deadline at all, it
// keeps the deadline it had.
func TestWithMoveShare(t *testing.T) {
	pos := engine.NewPosition(engine.Connect4()) // 42 empty cells: a share of 1/21
	game := botapi.TimeControl{Main: time.Minute}
	perMove := botapi.TimeControl{MoveTime: time.Minute}
	for _, tc := range []struct {
		name      string
		clock     botapi.TimeControl
		deadline  bool
		shortened bool
	}{
		{"game clock", game, true, true},
		{"time per move", perMove, true, false},
		{"no deadline", game, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent, cancelParent := context.WithCancel(context.Background())
			defer cancelParent()
			var end time.Time
			if tc.deadline {
				end = time.Now().Add(time.Hour)
				parent, cancelParent = context.WithDeadline(parent, end)
				defer cancelParent()
			}
			ctx, cancel := WithMoveShare(parent, tc.clock, pos)
			d, ok := ctx.Deadline()
			if ok != tc.deadline {
				t.Fatalf("deadline %v, want one: %v", d, tc.deadline)
			}
			if shortened := ok && d.Before(end.Add(-time.Minute)); shortened != tc.shortened {
				t.Errorf("deadline %v of %v: shortened %v, want %v", d, end, shortened, tc.shortened)
			}
			cancel()
			if ctx.Err() == nil {
				t.Error("cancel left the context running")
			}
		})
	}
}

func TestReserve(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		avail, reserve time.Duration
	}{
		{50 * ms, 30 * ms},  // at most 60%
		{100 * ms, 60 * ms}, // at least 60 ms
		{150 * ms, 60 * ms}, // 60 ms is 40% here
		{time.Second, 400 * ms},
		{5 * time.Second, 2 * time.Second},
		{0, 0},
		{-ms, 0},
	}
	for _, tt := range tests {
		if got := Reserve(tt.avail); got != tt.reserve {
			t.Errorf("Reserve(%v) = %v, want %v", tt.avail, got, tt.reserve)
		}
		if got, want := SearchTime(tt.avail), tt.avail-tt.reserve; got != want {
			t.Errorf("SearchTime(%v) = %v, want %v", tt.avail, got, want)
		}
	}
}

// TestSearchDeadline: a search ends before the move's deadline by the
// reserve (alphabeta used to stop 10 ms before a 100 ms deadline and 20 ms
// before 1 s, pndb max(25 ms, 15%) before it, and on a loaded machine each
// lost a game on time now and then); under a game clock, before the end of
// its share; without a deadline, a second from now.
func TestSearchDeadline(t *testing.T) {
	pos := engine.NewPosition(engine.Connect4())
	ms := time.Millisecond
	for _, tt := range []struct {
		name    string
		tc      botapi.TimeControl
		move    time.Duration // the context's deadline, from now
		atMost  time.Duration // the search's end, from now
		atLeast time.Duration
	}{
		{"50 ms a move", botapi.TimeControl{MoveTime: 50 * ms}, 50 * ms, 20 * ms, 0},
		{"100 ms a move", botapi.TimeControl{MoveTime: 100 * ms}, 100 * ms, 40 * ms, 0},
		{"1 s a move", botapi.TimeControl{MoveTime: time.Second}, time.Second, 600 * ms, 300 * ms},
		{"21 s on the clock: 1 s for the first move", botapi.TimeControl{Main: 21 * time.Second}, 21 * time.Second, 600 * ms, 300 * ms},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), tt.move)
		before := time.Now()
		end := SearchDeadline(ctx, tt.tc, pos)
		after := time.Now()
		cancel()
		// A slow call only brings the end closer to after (the time left
		// shrinks, and SearchTime grows with it).
		if in := end.Sub(after); in > tt.atMost {
			t.Errorf("%s: the search ends %v after the call; want at most %v", tt.name, in, tt.atMost)
		}
		if in := end.Sub(before); in < tt.atLeast {
			t.Errorf("%s: the search ends %v after the call; want at least %v", tt.name, in, tt.atLeast)
		}
	}
	if in := time.Until(SearchDeadline(context.Background(), botapi.TimeControl{}, pos)); in <= 900*ms || in > time.Second {
		t.Errorf("no deadline: the search ends in %v; want a second", in)
	}
}
