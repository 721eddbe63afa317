// Command hog is a memory hog: at GenMove it allocates and touches memory
// without end (mb_per_step MiB at a time, default 16) until it is killed.
package main

import (
	"context"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{}

func (bot) Info() botapi.Info {
	return tb.Info("hog", tb.IntOption("mb_per_step", "16", "MiB allocated at a time"))
}

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return &player{step: g.Values.Int("mb_per_step")}, nil
}

type player struct {
	step int64
	keep [][]byte
}

func (p *player) GenMove(context.Context, *engine.Position, func(botapi.Progress)) (engine.Move, error) {
	for {
		b := make([]byte, max(p.step, 1)<<20)
		for i := range b {
			b[i] = 1
		}
		p.keep = append(p.keep, b)
	}
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{})
}
