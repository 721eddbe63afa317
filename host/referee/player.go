package referee

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Player is one side's mover, the host's one contract with a bot: a plugin
// (host/pluginbot), an external engine (host/enginebot) or a test's fake
// (host/referee/refereetest). The referee, gtpfront, pbrain, match and
// kinrow solve all hold players through it and nothing else: no front end
// reaches past it to a wire-level interface, and what a player's process
// did is in Facts, not in optional interfaces.
//
// Every call that may block takes a ctx and must honour it. Players hear
// every move of the game (but those they answered themselves) through Play,
// in order.
type Player interface {
	// Name is the player's name in records, e.g. "random" or "alphabeta#2".
	Name() string
	// NewGame starts a game from the moves already played, for side c.
	NewGame(ctx context.Context, setup Setup) error
	// Play tells the player a move was played.
	Play(ctx context.Context, m engine.Move) error
	// Undo tells the player the last move was taken back.
	Undo(ctx context.Context) error
	// GenMove asks for a move in the player's notation ("resign" to
	// resign) and plays it on the player's own board, as GTP's genmove
	// does: the referee does not send a player its own move with Play. A
	// player must not play an illegal move it answers. The answer carries
	// the player's last search report, if it sent any.
	GenMove(ctx context.Context, req MoveRequest) (Answer, error)
	// Solve opens a solving stream (kinrow solve, kinrow-solve), valid
	// until ctx ends. A player that cannot solve returns an error wrapping
	// ErrUnsupported.
	Solve(ctx context.Context) (botapi.SolveStream, error)
	// Facts reports what the host knows of the player's processes. It is
	// cheap while the player is healthy (the referee asks after every
	// move, for the CPU time); after a call failed it looks closer, and once
	// the connection broke it may wait a moment (bounded, a few hundred
	// milliseconds) for the process to be reaped, so that a crash is
	// reported with its exit status.
	Facts() Facts
	// Kill stops the player at once; it never blocks for long. Idempotent.
	// The referee kills a player that stalled, crashed or broke the protocol.
	Kill()
	// Close stops a healthy player gracefully, bounded in time, killing it
	// if it does not go. Idempotent, and a no-op after Kill.
	Close()
}

// Facts is what the host knows of a player's processes.
type Facts struct {
	// Exited is set once the player's process has ended; How says how
	// ("killed by the host", "the bot process exited (exit status 3)").
	Exited bool
	How    string
	// CPU is the CPU time the player's processes have used so far, when
	// CPUKnown (host/procrun accounts it): recorded beside each move's wall
	// time.
	CPU      time.Duration
	CPUKnown bool
	// OverMemory is set when the player was ended for going over its memory
	// cap: its forfeit is for memory, not a crash.
	OverMemory bool
	// Tolerance is how long past a move's deadline the player's answer is
	// still accepted when that is longer than the game's grace: a Gomocup
	// engine's (Gomocup's managers give one on top of timeout_turn); 0
	// for others. It is fixed for the player's life: the referee reads it
	// when the player joins a game.
	Tolerance time.Duration
}

// Setup describes a game to a player.
type Setup struct {
	Rules engine.Rules
	Color engine.Color
	Moves []engine.Move
	Clock Clock
}

// MoveRequest asks a player for a move: the host's one move request. Its
// wire part (the deadline, the move's budget and both sides' clocks, in
// botapi.GenMoveRequest) goes to a plugin as it is (host/pluginbot sets
// its Play, as GenMove's contract says); the host adds the side to move
// and where the search reports go.
type MoveRequest struct {
	botapi.GenMoveRequest
	// Color is the side to move.
	Color engine.Color
	// Progress, if not nil, receives the search reports the player sends
	// while thinking, on GenMove's goroutine, never after GenMove returns
	// (host/pbrain's MESSAGE lines).
	Progress func(botapi.Progress)
}

// NewMoveRequest asks side c for a move due at deadline, with budget for
// this move and left as each side's clock stands (MoveRequest's fields).
func NewMoveRequest(c engine.Color, deadline time.Time, budget time.Duration, left [2]time.Duration) MoveRequest {
	return MoveRequest{
		GenMoveRequest: botapi.GenMoveRequest{Deadline: deadline, Budget: budget, XLeft: left[engine.X], OLeft: left[engine.O]},
		Color:          c,
	}
}

// Left is side c's clock in req: what it may use for its next move.
func (req MoveRequest) Left(c engine.Color) time.Duration {
	if c == engine.O {
		return req.OLeft
	}
	return req.XLeft
}

// Answer is a player's answer to a move request.
type Answer struct {
	// Move is the move in the player's notation, or "resign".
	Move string
	// Search is the last search report the player sent for it; nil when it
	// sent none.
	Search *record.Search
}

// SearchOf turns a search report into the record's form.
func SearchOf(p botapi.Progress) *record.Search {
	return &record.Search{Depth: p.Depth, Score: p.Score, Nodes: p.Nodes, MS: p.Time.Milliseconds(), PV: p.PV}
}

// ErrDisconnected is wrapped by players into errors that mean the connection
// to the player broke (it exited or closed it), so the referee can tell a
// crash from a stall.
var ErrDisconnected = errors.New("disconnected")

// ErrUnsupported is wrapped by a player's Solve when it cannot solve
// positions.
var ErrUnsupported = errors.ErrUnsupported

// SolveOne asks p for the value of one position over a stream of its own.
func SolveOne(ctx context.Context, p Player, req botapi.SolveRequest) (botapi.SolveReply, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, err := p.Solve(ctx)
	if err != nil {
		return botapi.SolveReply{}, err
	}
	if err := s.Send(req); err != nil && err != io.EOF {
		return botapi.SolveReply{}, err
	}
	if err := s.CloseSend(); err != nil {
		return botapi.SolveReply{}, err
	}
	r, err := s.Recv()
	if err != nil {
		return botapi.SolveReply{}, err
	}
	if r.ID != req.ID {
		return botapi.SolveReply{}, fmt.Errorf("%s answered request %d, not %d", p.Name(), r.ID, req.ID)
	}
	return r, nil
}
