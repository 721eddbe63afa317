package play

import (
	"context"

	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// Player plays one game with a mics.Searcher; it is an sdk.Player and an
// sdk.Observer.
type Player struct {
	s     *mics.Searcher
	clock botapi.TimeControl
}

// New returns the player of a game under the time control clock, searching
// with s (calibrated and following the game's position).
func New(s *mics.Searcher, clock botapi.TimeControl) *Player {
	return &Player{s: s, clock: clock}
}

// GenMove searches until the request's deadline or, with a game clock, a
// share of the time left.
func (p *Player) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	ctx, cancel := sdk.WithMoveShare(ctx, p.clock, pos)
	defer cancel()
	r := pos.Rules()
	return p.s.BestMove(ctx, pos, func(depth, score int, best engine.Move, nodes int64) {
		report(botapi.Progress{Depth: depth, Score: score, BestMove: r.FormatMove(best), Nodes: nodes})
	})
}

// Played keeps the searcher's board in step with the game, so that
// GenMove starts at once.
func (p *Player) Played(pos *engine.Position, _ engine.Move) { p.s.Follow(pos) }

// Undone keeps the searcher's board in step when a move is taken back.
func (p *Player) Undone(pos *engine.Position, _ engine.Move) { p.s.Follow(pos) }
