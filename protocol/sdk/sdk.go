package sdk

import (
	"context"
	"errors"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Bot is a kinrow bot: it describes itself and starts games.
//
// A Bot may also implement Solver.
type Bot interface {
	// Info describes the bot; it should return the same value every time.
	// Info.Options are the options NewGame accepts: the SDK checks a game's
	// options against them before calling NewGame.
	Info() botapi.Info
	// NewGame starts a game and returns the player for it. An error refuses
	// the game; the host sees it as InvalidArgument with the error's text
	// (unless it already carries a gRPC status).
	NewGame(ctx context.Context, g Game) (Player, error)
}

// Game is what NewGame is told about a game. The rules are ones the bot
// plays (by Info.Kinds, MaxRows, MaxCols) and the options are valid.
type Game struct {
	Rules engine.Rules
	// Color is the side the bot will be asked to play (informational: it
	// may be asked to move for either side); engine.Empty if not told.
	Color engine.Color
	// Options are the options as given, Values the same checked against
	// Info().Options with the defaults filled in.
	Options map[string]string
	Values  Values
	// Time is the game's time control as the user set it, increment
	// included; per move, MoveClockOf(ctx) in GenMove tells the budget and
	// both sides' time left, and MoveShare a share of the time to spend.
	Time botapi.TimeControl
	// Moves were already played before the game was handed to the bot.
	Moves []engine.Move
}

// Player plays one game.
type Player interface {
	// GenMove returns a move for the side to move in pos, which the SDK
	// guarantees is not over. The player may play and undo moves on pos but
	// must restore it before returning (the SDK rebuilds it and logs an
	// error otherwise). ctx carries the deadline of the request, if any,
	// and the move's clock (MoveClockOf), and is cancelled when the host
	// gives up: return the best move found
	// so far at once; returning ctx.Err() forfeits the game. report, never
	// nil, streams search progress to the host; do not call it after
	// GenMove returns. Return ErrResign to resign.
	//
	// The SDK sends the move in notation; an illegal move is logged as a
	// warning but still sent: the host referees it.
	GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error)
}

// Observer is optionally implemented by a Player that wants to follow the
// moves the host plays and takes back (its own moves included). The SDK
// calls Played after applying m to pos, and Undone after taking m back.
type Observer interface {
	Played(pos *engine.Position, m engine.Move)
	Undone(pos *engine.Position, m engine.Move)
}

// Solver is optionally implemented by a Bot that solves positions. Solve
// is called once per request, sequentially, with pos built from the
// request's rules and moves (the SDK's, reused for the next request: keep
// nothing of it), and ctx bounded by the request's timeout. The
// SDK fills in the reply's ID; a request with bad rules or moves is
// answered with SolveReply.Error without calling Solve.
type Solver interface {
	Solve(ctx context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error)
}

// ErrResign is returned by Player.GenMove to resign the game.
var ErrResign = errors.New("resign")
