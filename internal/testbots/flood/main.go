// Command flood writes mb MiB (default 11) at every GenMove, then plays the
// first legal move. to=stderr (the default) writes lines to file
// descriptor 2 (go-plugin's Serve points os.Stderr at its own gRPC stdio
// stream, which the host discards); to=stdout writes them to file
// descriptor 1, the host's plugin pipe, after the handshake; with line=1
// the mb MiB are one line (one newline at its end).
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

type bot struct{}

func (bot) Info() botapi.Info {
	return tb.Info("flood",
		tb.IntOption("mb", "11", "MiB written per move"),
		botapi.Option{Name: "to", Type: botapi.OptionChoice, Default: "stderr", Choices: []string{"stderr", "stdout"},
			Help: "the file descriptor written to: stderr (2) or stdout (1, the plugin pipe)"},
		tb.IntOption("line", "0", "1: the flood is one line"))
}

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	fd := uintptr(2)
	if g.Values.Get("to") == "stdout" {
		fd = 1
	}
	size, one := g.Values.Int("mb")<<20, g.Values.Int("line") == 1
	return tb.PlayerFunc(func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		w := bufio.NewWriterSize(os.NewFile(fd, "flood"), 1<<16)
		chunk := line
		if one {
			chunk = strings.Repeat("x", len(line))
		}
		for n := int64(0); n < size; n += int64(len(chunk)) {
			w.WriteString(chunk)
		}
		if one {
			w.WriteString("\n")
		}
		w.Flush()
		return tb.Legal(pos), nil
	}), nil
}

func main() { tb.Serve(bot{}) }
