package main

import (
	"time"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/sdk"
)

func main() {
	tb.Limit(nil)
	time.Sleep(60 * time.Second)
	sdk.Serve(tb.Bot{Name: "sleeper"})
}
