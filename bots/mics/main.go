package main

import (
	"context"
	"time"

	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/bots/mics/play"
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
	return play.New(s, g.Time), nil
}

func main() { sdk.Serve(bot{}) }
