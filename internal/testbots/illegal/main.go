package main

import (
	"context"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// Garbage is what kind=garbage answers.
const Garbage = "zz!9"

type bot struct{}

func (bot) Info() botapi.Info {
	return tb.Info("illegal", botapi.Option{
		Name: "kind", Type: botapi.OptionChoice, Default: "offboard",
		Choices: []string{"occupied", "full", "offboard", "garbage"}, Help: "which illegal move to answer",
	})
}

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return player{kind: g.Values.Get("kind")}, nil
}

type player struct{ kind string }

func (p player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	r := pos.Rules()
	if p.kind == "occupied" || p.kind == "full" {
		for m := engine.Move(0); int(m) < r.MoveRange(); m++ {
			if !pos.Legal(m) {
				return m, nil // a full column or an occupied cell
			}
		}
	}
	return engine.Move(r.MoveRange()), nil // one column past the last, one row above the top
}

// wire answers garbage for kind=garbage, and otherwise lets the SDK work.
type wire struct {
	botapi.Bot
	garbage bool
}

func (w *wire) NewGame(ctx context.Context, g botapi.Game) error {
	w.garbage = g.Options["kind"] == "garbage"
	return w.Bot.NewGame(ctx, g)
}

func (w *wire) GenMove(ctx context.Context, req botapi.GenMoveRequest, progress func(botapi.Progress)) (string, error) {
	if w.garbage {
		return Garbage, nil
	}
	return w.Bot.GenMove(ctx, req, progress)
}

func main() {
	tb.Limit(nil)
	sdk.ServeAPI(&wire{Bot: sdk.Adapt(bot{}, sdk.Logger())})
}
