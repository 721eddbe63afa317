// Command hog is a memory hog: at GenMove it allocates and touches memory
// without end (mb_per_step MiB at a time, default 16) until it is killed.
package main

import (
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Serve(tb.IntBot{Name: "hog", Option: "mb_per_step", Default: "16", Help: "MiB allocated at a time",
		Player: func(step int64) sdk.Player {
			var keep [][]byte
			return tb.Moves(func(*engine.Position) engine.Move {
				for {
					b := make([]byte, max(step, 1)<<20)
					for i := range b {
						b[i] = 1
					}
					keep = append(keep, b)
				}
			})
		}})
}
