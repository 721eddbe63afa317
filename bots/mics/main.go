package main

import (
	"context"
	"time"

	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// calibration bounds the node-speed calibration at the start of a game.
const calibration = 100 * time.Millisecond

type bot struct{}

// Info describes the bot: strength 20, both kinds, boards up to 128x128.
func (bot) Info() botapi.Info {
	return botapi.Info{
		Name: "mics", Version: "1.0", Author: "kinrow", Strength: 20,
		// Stronger than alphabeta at m,n,k (docs/STRENGTH.md), weaker at Connect-X.
		KindStrength: map[string]int{"mnk": 45},
		// Every variant: the board's windows follow the line rule (an
		// overline wins nothing where only exactly K wins), and under renju
		// black's candidates are judged by the engine (mics.Searcher).
		Kinds:   engine.Variants(),
		MaxRows: engine.MaxSide, MaxCols: engine.MaxSide,
		Options: []botapi.Option{
			{Name: "branching", Type: botapi.OptionInt, Min: 1, Max: mics.MaxBranching,
				Help: "cells searched per node, best MICS values first (default: 8..12 by the node budget, all on small boards)"},
			{Name: "depth", Type: botapi.OptionInt, Min: 1, Max: mics.MaxDepth,
				Help: "fixed depth limit in plies (default: adapted to the budget, deepened while time remains)"},
			{Name: "seed", Type: botapi.OptionInt,
				Help: "seed of the tie-break between cells of equal value (default: time-based)"},
		},
	}
}

// NewGame builds the searcher, calibrates its node speed on the empty board
// for the per-move time (at most 100 ms) and follows the moves already played.
func (bot) NewGame(ctx context.Context, g sdk.Game) (sdk.Player, error) {
	seed := uint64(time.Now().UnixNano())
	if g.Values.Given("seed") {
		seed = uint64(g.Values.Int("seed"))
	}
	s, err := mics.New(g.Rules, mics.Options{
		Branching: int(g.Values.Int("branching")),
		Depth:     int(g.Values.Int("depth")),
		Seed:      seed,
		MoveTime:  g.Time.MoveTime,
	})
	if err != nil {
		return nil, err
	}
	d := calibration
	if g.Time.MoveTime > 0 {
		d = min(d, g.Time.MoveTime)
	}
	s.Calibrate(ctx, d)
	pos := engine.NewPosition(g.Rules)
	for _, m := range g.Moves {
		pos.Play(m)
	}
	s.Follow(pos)
	return &player{s: s, clock: g.Time}, nil
}

// player plays one game with a mics.Searcher.
type player struct {
	s     *mics.Searcher
	clock botapi.TimeControl
}

// GenMove searches until the request's deadline or, with a game clock, a
// share of the time left.
func (p *player) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if share := sdk.MoveShare(p.clock, left, pos); share < left {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, share)
			defer cancel()
		}
	}
	r := pos.Rules()
	return p.s.BestMove(ctx, pos, func(depth, score int, best engine.Move, nodes int64) {
		report(botapi.Progress{Depth: depth, Score: score, BestMove: r.FormatMove(best), Nodes: nodes})
	})
}

// Played keeps the searcher's board in step with the game, so that
// GenMove starts at once.
func (p *player) Played(pos *engine.Position, _ engine.Move) { p.s.Follow(pos) }

// Undone keeps the searcher's board in step when a move is taken back.
func (p *player) Undone(pos *engine.Position, _ engine.Move) { p.s.Follow(pos) }

func main() { sdk.Serve(bot{}) }
