package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/gtp"
)

func main() {
	mode := flag.String("mode", "random", "random, silent, junk, illegal, crash, refuse, huge (an 8 MiB answer line), long (an answer of 30 lines of 60 KiB), wordy (a 1,000-byte answer) or stray (a second answer to genmove)")
	after := flag.Int("after", 0, "good moves before misbehaving")
	pidfile := flag.String("pidfile", "", "write the process id to this file")
	transcript := flag.String("transcript", "", "append every command received to this file")
	flag.Parse()
	time.AfterFunc(2*time.Minute, func() { os.Exit(4) })
	if *pidfile != "" {
		os.WriteFile(*pidfile, []byte(fmt.Sprint(os.Getpid())), 0o644)
	}
	var log *os.File
	if *transcript != "" {
		log, _ = os.OpenFile(*transcript, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	}
	fmt.Fprintln(os.Stderr, "kinrowengine: ready, mode", *mode)
	board := tb.NewBoard()
	moves := 0
	var seen func(gtp.Command)
	if log != nil {
		seen = func(c gtp.Command) { fmt.Fprintln(log, strings.TrimSpace(c.Name+" "+strings.Join(c.Args, " "))) }
	}
	board.Serve(os.Stdin, os.Stdout, seen, func(w *gtp.Writer, c gtp.Command) {
		switch c.Name {
		case "kinrow-option", "kinrow-movetime":
			w.Success(c, "")
		case "genmove":
			if moves >= *after {
				switch *mode {
				case "silent":
					return
				case "junk":
					fmt.Fprint(os.Stdout, "my move is 4\n\n")
					return
				case "illegal":
					w.Success(c, "999")
					return
				case "crash":
					os.Exit(3)
				case "refuse":
					w.Failure(c, "I do not want to")
					return
				case "wordy":
					w.Success(c, strings.Repeat("4", 1000))
					return
				case "huge": // one answer line of 8 MiB
					fmt.Fprintf(os.Stdout, "=%d %s\n\n", c.ID, strings.Repeat("4", 8<<20))
					return
				case "long": // an answer of 30 lines of 60 KiB
					fmt.Fprintf(os.Stdout, "=%d 4", c.ID)
					for range 30 {
						fmt.Fprintf(os.Stdout, "\n%s", strings.Repeat("x", 60<<10))
					}
					fmt.Fprint(os.Stdout, "\n\n")
					return
				}
			}
			legal := board.Pos.LegalMoves(nil)
			if len(legal) == 0 {
				w.Success(c, "resign")
				return
			}
			m := legal[rand.IntN(len(legal))]
			board.Pos.Play(m)
			moves++
			w.Success(c, board.Pos.Rules().FormatMove(m))
			if *mode == "stray" && moves > *after {
				fmt.Fprint(os.Stdout, "= 1\n\n") // a second answer nobody asked for
			}
		default:
			w.Failure(c, "unknown command")
		}
	})
}
