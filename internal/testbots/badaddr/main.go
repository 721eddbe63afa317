// Command badaddr answers the plugin handshake with an address outside its
// private socket directory: KINROW_BADADDR unset (tcp) names
// 127.0.0.1:45678, as in issue 14, =unix names /tmp/kinrow-elsewhere.sock,
// and =link (issue 23) names a symbolic link it makes inside its private
// directory, pointing at the unix socket $KINROW_BADADDR_TARGET (the host's
// check read only the path's text, and dialled the foreign socket). Then
// it waits.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
)

func main() {
	tb.Limit(nil)
	network, addr := "tcp", "127.0.0.1:45678"
	switch os.Getenv("KINROW_BADADDR") {
	case "unix":
		network, addr = "unix", "/tmp/kinrow-elsewhere.sock"
	case "link":
		network, addr = "unix", filepath.Join(os.Getenv("PLUGIN_UNIX_SOCKET_DIR"), "plugin.sock")
		if err := os.Symlink(os.Getenv("KINROW_BADADDR_TARGET"), addr); err != nil {
			fmt.Fprintln(os.Stderr, "badaddr:", err)
		}
	}
	fmt.Printf("1|%d|%s|%s|grpc\n", botapi.ProtocolVersion, network, addr)
	time.Sleep(tb.Lifetime)
}
