package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type random struct{}

func (random) Info() botapi.Info {
	return botapi.Info{
		Name: "random", Version: "1.0", Author: "kinrow", Strength: 0,
		Kinds: engine.Variants(), // every line rule: it picks among pos.LegalMoves, which leaves out renju's fouls
		Options: []botapi.Option{
			{Name: "seed", Type: botapi.OptionInt, Help: "seed of the random moves (default: time-based)"},
		},
	}
}

func (random) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	seed := uint64(time.Now().UnixNano())
	if g.Values.Given("seed") {
		seed = uint64(g.Values.Int("seed"))
	}
	return &player{rng: rand.New(rand.NewPCG(seed, 0x6b696e726f77))}, nil
}

// player picks uniformly among the legal moves.
type player struct {
	rng   *rand.Rand
	legal []engine.Move
}

func (p *player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	p.legal = pos.LegalMoves(p.legal[:0])
	return p.legal[p.rng.IntN(len(p.legal))], nil
}

func main() { sdk.Serve(random{}) }
