package main

import (
	"context"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Serve(tb.IntBot{Name: "late", Option: "late_ms", Default: "3000", Help: "milliseconds to sleep before answering",
		Player: func(ms int64) sdk.Player {
			return tb.PlayerFunc(func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
				time.Sleep(time.Duration(ms) * time.Millisecond)
				return tb.Legal(pos), nil
			})
		}})
}
