// Command badaddr answers the plugin handshake with an address outside its
// private socket directory: addr=tcp (default) names 127.0.0.1:45678, as in
// issue 14, addr=unix names /tmp/kinrow-elsewhere.sock. Then it waits.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
)

func main() {
	tb.Limit(nil)
	network, addr := "tcp", "127.0.0.1:45678"
	if os.Getenv("KINROW_BADADDR") == "unix" {
		network, addr = "unix", "/tmp/kinrow-elsewhere.sock"
	}
	fmt.Printf("1|%d|%s|%s|grpc\n", botapi.ProtocolVersion, network, addr)
	time.Sleep(tb.Lifetime)
}
