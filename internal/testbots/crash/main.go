package main

import (
	"os"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Serve(tb.IntBot{Name: "crash", Option: "crash_after", Default: "0", Help: "good moves before crashing",
		Player: func(left int64) sdk.Player { return tb.After(left, func() { os.Exit(3) }) }})
}
