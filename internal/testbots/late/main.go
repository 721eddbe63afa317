package main

import (
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Serve(tb.IntBot{Name: "late", Option: "late_ms", Default: "3000", Help: "milliseconds to sleep before answering",
		Player: func(ms int64) sdk.Player {
			return tb.Moves(func(pos *engine.Position) engine.Move {
				time.Sleep(time.Duration(ms) * time.Millisecond)
				return tb.Legal(pos)
			})
		}})
}
