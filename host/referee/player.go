package referee

import (
	"context"
	"errors"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// Player is one side's mover: a bot behind a plugin boundary or an external
// engine. Every call may block and must honour ctx. Players hear every move
// of the game (their own included) through Play, in order.
type Player interface {
	// Name is the player's name in records, e.g. "random" or "alphabeta#2".
	Name() string
	// NewGame starts a game from the moves already played, for side c.
	NewGame(ctx context.Context, setup Setup) error
	// Play tells the player a move was played.
	Play(ctx context.Context, m engine.Move) error
	// Undo tells the player the last move was taken back.
	Undo(ctx context.Context) error
	// GenMove asks for a move in the player's notation ("resign" to resign)
	// and plays it on the player's own board, as GTP's genmove does: the
	// referee does not send a player its own move with Play. A player must
	// not play an illegal move it answers.
	GenMove(ctx context.Context, req MoveRequest) (string, error)
	// Exit reports whether the player's process has exited, and how.
	Exit() (exited bool, how string)
	// Kill stops the player at once; it never blocks for long. Idempotent.
	// The referee kills a player that stalled, crashed or broke the protocol.
	Kill()
	// Close stops a healthy player gracefully, bounded in time, killing it
	// if it does not go. Idempotent, and a no-op after Kill.
	Close()
}

// SearchReporter is a Player that keeps the search report of the move its
// last GenMove answered (a plugin bot's last progress report): the referee
// stores it with the move in the record. nil when it reported none.
type SearchReporter interface {
	LastSearch() *record.Search
}

// Contained is a Player whose processes the host accounts (host/procrun):
// their CPU time, recorded beside each move's wall time, and whether they
// were ended for going over their memory cap (a forfeit for memory, not a
// crash).
type Contained interface {
	// CPUTime is the CPU time the player's processes have used so far;
	// false when unknown.
	CPUTime() (time.Duration, bool)
	// OverMemory reports whether the player was killed over its memory cap.
	OverMemory() bool
}

// Tolerant is a Player whose answers are accepted for longer than the
// game's grace past a move's deadline: a Gomocup engine (host/enginebot),
// to which Gomocup's managers give a tolerance on top of timeout_turn.
// The longer of the grace and the tolerance applies to that player only.
type Tolerant interface {
	Tolerance() time.Duration
}

// Setup describes a game to a player.
type Setup struct {
	Rules engine.Rules
	Color engine.Color
	Moves []engine.Move
	Clock Clock
}

// MoveRequest asks a player for a move. Deadline is when the answer is due
// (the host adds its grace before forfeiting); Left is each side's clock.
type MoveRequest struct {
	Color    engine.Color
	Deadline time.Time
	MoveTime time.Duration
	Left     [2]time.Duration
}

// ErrDisconnected is wrapped by players into errors that mean the connection
// to the player broke (it exited or closed it), so the referee can tell a
// crash from a stall.
var ErrDisconnected = errors.New("disconnected")
