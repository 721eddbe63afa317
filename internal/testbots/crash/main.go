package main

import (
	"context"
	"os"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{}

func (bot) Info() botapi.Info {
	return tb.Info("crash", tb.IntOption("crash_after", "0", "good moves before crashing"))
}

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return &player{left: g.Values.Int("crash_after")}, nil
}

type player struct{ left int64 }

func (p *player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	if p.left <= 0 {
		os.Exit(3)
	}
	p.left--
	return tb.Legal(pos), nil
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{})
}
