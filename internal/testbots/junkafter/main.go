package main

import (
	"context"
	"os"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// stdout is the real file descriptor 1 (go-plugin swaps os.Stdout).
var stdout = os.NewFile(1, "stdout")

type bot struct{}

func (bot) Info() botapi.Info { return tb.Info("junkafter") }

func (bot) NewGame(context.Context, sdk.Game) (sdk.Player, error) { return player{}, nil }

type player struct{}

func (player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	stdout.WriteString("= 1\n\n1|1|unix|/tmp/nothing|grpc|\njunk from junkafter\n")
	return tb.Legal(pos), nil
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{})
}
