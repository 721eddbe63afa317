//go:build linux

// Command intruderengine is the intruder (internal/testbots/intruder) as
// an engine speaking the kinrow text protocol, run through an engine
// manifest: at its first genmove in a process it tries the escape its
// attack option names (kinrow-option attack NAME, with the other options
// of package attack as kinrow-option KEY VALUE; the manifest's [options]
// or --bot-opt NAME:KEY=VALUE send them), writes its report line on
// stderr (which the host logs at debug level), then answers the first
// legal move. It exits by itself after two minutes.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kinrow/kinrow/internal/testbots/intruder/attack"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/gtp"
)

func main() {
	attack.Child()
	time.AfterFunc(2*time.Minute, func() { os.Exit(4) })
	fmt.Fprintln(os.Stderr, "intruderengine: ready")
	board := tb.NewBoard()
	opts := attack.Options{}
	attacked := false
	board.Serve(os.Stdin, os.Stdout, nil, func(w *gtp.Writer, c gtp.Command) {
		switch c.Name {
		case "kinrow-option":
			if len(c.Args) < 1 {
				w.Failure(c, "syntax error")
				return
			}
			opts[c.Args[0]] = strings.Join(c.Args[1:], " ")
			w.Success(c, "")
		case "kinrow-movetime", "kinrow-side":
			w.Success(c, "")
		case "genmove":
			if name := opts["attack"]; !attacked && name != "" && name != "none" {
				attacked = true
				o := attack.Options{"rules": board.Pos.Rules().String()}
				for k, v := range opts {
					o[k] = v
				}
				attack.Report(name, o)
			}
			legal := board.Pos.LegalMoves(nil)
			if len(legal) == 0 {
				w.Success(c, "resign")
				return
			}
			m := legal[0]
			board.Pos.Play(m)
			w.Success(c, board.Pos.Rules().FormatMove(m))
		default:
			w.Failure(c, "unknown command")
		}
	})
}
