package main

import (
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Serve(tb.IntBot{Name: "hang", Option: "hang_after", Default: "0", Help: "genmoves answered before hanging",
		Player: func(left int64) sdk.Player { return tb.After(left, tb.Hang) }})
}
