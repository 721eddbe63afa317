package search

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/engine"
)

// perfectMove is the exact best move: the fastest win, else a draw, else the
// slowest loss.
func perfectMove(t *testing.T, s *Searcher, pos *engine.Position) engine.Move {
	best, bestScore := engine.NoMove, -1<<30
	for _, m := range pos.LegalMoves(nil) {
		pos.Play(m)
		var sc int
		switch pos.Result() {
		case engine.Open:
			v, err := s.Value(context.Background(), pos)
			if err != nil {
				t.Fatal(err)
			}
			sc = -int(v)
		case engine.Draw:
			sc = 0
		default:
			sc = Win
		}
		pos.Undo()
		if sc > bestScore {
			best, bestScore = m, sc
		}
	}
	return best
}

// playOut plays alphabeta (200 ms a move) from pos against the perfect
// opponent and returns the result from alphabeta's side.
func playOut(t *testing.T, pos *engine.Position) int {
	r := pos.Rules()
	bot, _ := New(r, Options{TTMiB: 16})
	oracle, _ := New(r, Options{TTMiB: 64})
	me := pos.ToMove()
	for pos.Result() == engine.Open {
		var m engine.Move
		if pos.ToMove() == me {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			var err error
			m, _, err = bot.BestMove(ctx, pos, nil)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
		} else {
			m = perfectMove(t, oracle, pos)
		}
		if err := pos.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	switch pos.Result().Winner() {
	case me:
		return 1
	case engine.Empty:
		return 0
	}
	return -1
}

// TestPlaysMiddleGamesPerfectly: from middle-game positions of the shared
// set, a won position is won and a drawn one not lost, against perfect play.
func TestPlaysMiddleGamesPerfectly(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 2
	}
	if os := testingLong(); os {
		n = 1000
	}
	r := engine.Connect4()
	var won, drawn int
	for _, f := range c4set.Read(t, "Test_L2_R1.txt", 0, nil) {
		score, _ := strconv.Atoi(f[1])
		if score < 0 || (score > 0 && won >= n) || (score == 0 && drawn >= n) {
			continue
		}
		moves, _ := r.ParseMoveList(f[0])
		pos := engine.NewPosition(r)
		pos.PlayMoveList(moves)
		got := playOut(t, pos)
		switch {
		case score > 0:
			won++
			if got != 1 {
				t.Errorf("%s (score %d, a win): alphabeta got %d", f[0], score, got)
			}
		default:
			drawn++
			if got < 0 {
				t.Errorf("%s (a draw): alphabeta lost", f[0])
			}
		}
		if won >= n && drawn >= n {
			break
		}
	}
	t.Logf("%d won and %d drawn positions played", won, drawn)
}
