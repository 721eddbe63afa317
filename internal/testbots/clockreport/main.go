package main

import (
	"context"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{}

func (bot) Info() botapi.Info { return tb.Info("clockreport") }

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	t := g.Time
	sdk.Logger().Info("newgame clock", "movetime_ms", t.MoveTime.Milliseconds(), "main_ms", t.Main.Milliseconds(),
		"byo_ms", t.Byo.Milliseconds(), "byo_stones", t.ByoStones, "increment_ms", t.Increment.Milliseconds())
	return player{}, nil
}

type player struct{}

func (player) GenMove(ctx context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	c, ok := sdk.MoveClockOf(ctx)
	sdk.Logger().Info("genmove clock", "ok", ok, "budget_ms", c.Budget.Milliseconds(),
		"x_left_ms", c.Left[engine.X].Milliseconds(), "o_left_ms", c.Left[engine.O].Milliseconds())
	return tb.Legal(pos), nil
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{})
}
