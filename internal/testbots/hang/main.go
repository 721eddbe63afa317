package main

import (
	"context"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Serve(tb.IntBot{Name: "hang", Option: "hang_after", Default: "0", Help: "genmoves answered before hanging",
		Player: func(left int64) sdk.Player {
			return tb.PlayerFunc(func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
				if left <= 0 {
					tb.Hang()
				}
				left--
				return tb.Legal(pos), nil
			})
		}})
}
