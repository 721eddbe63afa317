// Command sleeper is a test bot that sleeps 60 s before serving, so it
// never completes the plugin handshake in time.
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
