package sdk

import (
	"context"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// MoveClock is the clock at one move request, as the host sent it with
// GenMove. The game's time control came once, in Game.Time.
type MoveClock struct {
	// Budget is the time the host allots this move: from its request to
	// the deadline in GenMove's context. Zero when there is no deadline.
	Budget time.Duration
	// Left is what each side (indexed by engine.X and engine.O) may use for
	// its next move as the clocks stand: under a game clock its main time
	// (plus a byo-yomi period when one follows) or what is left of its
	// byo-yomi period; with a fixed time per move, that time.
	Left [2]time.Duration
}

type moveClockKey struct{}

func withMoveClock(ctx context.Context, c MoveClock) context.Context {
	return context.WithValue(ctx, moveClockKey{}, c)
}

// MoveClockOf returns the move's clock from the context the SDK hands
// Player.GenMove; false for any other context.
func MoveClockOf(ctx context.Context) (MoveClock, bool) {
	c, ok := ctx.Value(moveClockKey{}).(MoveClock)
	return c, ok
}

// MoveShare returns the part of left, the time until the move's deadline,
// to spend on the move at pos. Under a game clock (tc.Main or tc.Byo set)
// it is left/max(8, (cells-ply)/2) + tc.Increment: the time spread over the
// moves the side may still have to make (half the empty cells, at least 8),
// plus the increment the move earns back, never more than left. With a
// fixed time per move (or none) it is left whole. A left of zero or less is
// returned as it is.
func MoveShare(tc botapi.TimeControl, left time.Duration, pos *engine.Position) time.Duration {
	if left <= 0 || !tc.Timed() {
		return left
	}
	moves := max(8, (pos.Rules().Cells()-pos.Ply())/2)
	return min(left, left/time.Duration(moves)+tc.Increment)
}

// Reserve is the part of a move's time avail a bot keeps in hand: 40%, at
// least 60 ms, never more than 60%. The referee's grace past the deadline
// is short (kinrow's 100 ms), and a process starved on a loaded machine
// must still answer within it: at a load of 15 to 20 on two cores bots went
// unscheduled for 400 ms and more, and even at a load of 3 moves came back
// up to 95 ms past the point their search stopped. At short times most of
// the move is reserve (at 100 ms a search stops at 40 ms, at 50 ms at
// 20 ms); at a second it stops at 600 ms. Every bot of kinrow's stops its
// search at avail - Reserve(avail) (see SearchTime).
func Reserve(avail time.Duration) time.Duration {
	if avail <= 0 {
		return 0
	}
	return max(avail*4/10, min(60*time.Millisecond, avail*6/10))
}

// SearchTime is the part of a move's time avail a bot may search:
// avail - Reserve(avail) (avail itself when it is not positive: no time).
func SearchTime(avail time.Duration) time.Duration {
	return avail - Reserve(avail)
}

// SearchDeadline returns when a bot's search of the move at pos must end:
// MoveShare's part of the time to ctx's deadline, less its Reserve, from
// now; without a deadline, a second from now.
func SearchDeadline(ctx context.Context, tc botapi.TimeControl, pos *engine.Position) time.Time {
	d, ok := ctx.Deadline()
	if !ok {
		return time.Now().Add(time.Second)
	}
	return time.Now().Add(SearchTime(MoveShare(tc, time.Until(d), pos)))
}

// WithMoveShare returns ctx bounded by MoveShare's part of the time to its
// deadline for the move at pos, or ctx as it is (made cancellable) when it
// has no deadline or the share is all of it. Call cancel once the move is
// chosen.
func WithMoveShare(ctx context.Context, tc botapi.TimeControl, pos *engine.Position) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if share := MoveShare(tc, left, pos); share < left {
			return context.WithTimeout(ctx, share)
		}
	}
	return context.WithCancel(ctx)
}
