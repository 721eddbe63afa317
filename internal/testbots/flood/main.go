// Command flood writes mb MiB (default 11) of lines to its stderr, file
// descriptor 2 (go-plugin's Serve points os.Stderr at its own gRPC stdio
// stream, which the host discards), at every GenMove, then plays the first
// legal move.
package main

import (
	"bufio"
	"context"
	"os"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

var line = strings.Repeat("flood ", 17) + "\n" // 103 bytes

func main() {
	tb.Serve(tb.IntBot{Name: "flood", Option: "mb", Default: "11", Help: "MiB written to stderr per move",
		Player: func(mb int64) sdk.Player {
			return tb.PlayerFunc(func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
				w := bufio.NewWriterSize(os.NewFile(2, "stderr"), 1<<16)
				for n := int64(0); n < mb<<20; n += int64(len(line)) {
					w.WriteString(line)
				}
				w.Flush()
				return tb.Legal(pos), nil
			})
		}})
}
