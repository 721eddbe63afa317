package main

import (
	"context"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{}

func (bot) Info() botapi.Info {
	return tb.Info("late", tb.IntOption("late_ms", "3000", "milliseconds to sleep before answering"))
}

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return player{delay: time.Duration(g.Values.Int("late_ms")) * time.Millisecond}, nil
}

type player struct{ delay time.Duration }

func (p player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	time.Sleep(p.delay)
	return tb.Legal(pos), nil
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{})
}
