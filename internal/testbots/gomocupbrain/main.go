package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/kinrow/kinrow/protocol/gomocup"
)

// limit: the brain exits by itself after this long, whatever happens.
const limit = 2 * time.Minute

type brain struct {
	w         *gomocup.Writer
	mode      string
	after     int // good moves before misbehaving
	moves     int // moves answered
	width     int
	height    int
	board     map[gomocup.Point]int // 1 own, 2 opponent
	rng       *rand.Rand
	log       *os.File // the transcript, or nil
	square    bool     // refuse RECTSTART
	ignoreEnd bool
}

func main() {
	mode := flag.String("mode", "random", "random, silent, junk, illegal, occupied, crash, error or slow")
	after := flag.Int("after", 0, "good moves before misbehaving")
	pidfile := flag.String("pidfile", "", "write the process id to this file")
	transcript := flag.String("transcript", "", "append every line received to this file")
	square := flag.Bool("square", false, "refuse RECTSTART (UNKNOWN), as square-only brains do")
	ignoreEnd := flag.Bool("ignore-end", false, "do not exit at END nor at the end of input")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	flag.Parse()
	time.AfterFunc(limit, func() { os.Exit(4) })
	if *pidfile != "" {
		if err := os.WriteFile(*pidfile, []byte(fmt.Sprint(os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gomocupbrain:", err)
			os.Exit(1)
		}
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	b := &brain{w: gomocup.NewWriter(os.Stdout), mode: *mode, after: *after, square: *square, ignoreEnd: *ignoreEnd,
		rng: rand.New(rand.NewPCG(*seed, 1)), board: map[gomocup.Point]int{}}
	if *transcript != "" {
		f, err := os.OpenFile(*transcript, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gomocupbrain:", err)
			os.Exit(1)
		}
		b.log = f
	}
	fmt.Fprintln(os.Stderr, "gomocupbrain: ready, mode", *mode)
	r := gomocup.NewReader(os.Stdin)
	for {
		c, err := r.Next()
		if err != nil {
			if se, ok := err.(*gomocup.SyntaxError); ok {
				b.note("? " + se.Error())
				b.w.Response(gomocup.ReplyTo(err))
				continue
			}
			if b.ignoreEnd {
				select {} // until killed (or the time limit)
			}
			return // end of input
		}
		b.note(c.String())
		b.handle(c)
	}
}

// note appends a line to the transcript.
func (b *brain) note(line string) {
	if b.log != nil {
		fmt.Fprintln(b.log, strings.ReplaceAll(line, "\n", " | "))
	}
}

func (b *brain) handle(c gomocup.Command) {
	switch c.Kind {
	case gomocup.CmdStart, gomocup.CmdRectStart:
		if b.square && c.Kind == gomocup.CmdRectStart {
			b.w.Response(gomocup.Response{Kind: gomocup.ReplyUnknown, Text: "RECTSTART: square boards only"})
			return
		}
		if c.Width < 5 || c.Height < 5 || c.Width > 128 || c.Height > 128 {
			b.w.Response(gomocup.Response{Kind: gomocup.ReplyError, Text: "sides from 5 to 128"})
			return
		}
		b.width, b.height = c.Width, c.Height
		clear(b.board)
		b.w.Response(gomocup.OK())
	case gomocup.CmdRestart:
		clear(b.board)
		b.w.Response(gomocup.OK())
	case gomocup.CmdInfo:
	case gomocup.CmdBegin:
		b.move()
	case gomocup.CmdTurn:
		b.board[c.Point] = 2
		b.move()
	case gomocup.CmdBoard:
		clear(b.board)
		for _, s := range c.Stones {
			b.board[s.Point] = int(s.Field)
		}
		b.move()
	case gomocup.CmdTakeback:
		delete(b.board, c.Point)
		b.w.Response(gomocup.OK())
	case gomocup.CmdAbout:
		b.w.Response(gomocup.Response{Kind: gomocup.ReplyAbout, About: []gomocup.AboutField{{Key: "name", Value: "gomocupbrain"}}})
	case gomocup.CmdEnd:
		if !b.ignoreEnd {
			os.Exit(0)
		}
	default:
		b.w.Response(gomocup.Response{Kind: gomocup.ReplyUnknown, Text: c.Kind.String() + " is not supported"})
	}
}

// move answers a move request, misbehaving once after good moves.
func (b *brain) move() {
	b.w.Response(gomocup.Response{Kind: gomocup.ReplyMessage, Text: fmt.Sprintf("thinking about move %d", b.moves+1)})
	b.w.Response(gomocup.Response{Kind: gomocup.ReplyDebug, Text: fmt.Sprintf("%d stones", len(b.board))})
	if b.moves >= b.after {
		switch b.mode {
		case "silent":
			return
		case "junk":
			fmt.Fprint(os.Stdout, "hello, I am a brain\n")
			return
		case "illegal":
			b.w.Response(gomocup.Move(gomocup.Point{X: b.width, Y: 0}))
			return
		case "occupied":
			for p := range b.board {
				b.w.Response(gomocup.Move(p))
				return
			}
		case "crash":
			fmt.Fprintln(os.Stderr, "gomocupbrain: crashing as asked")
			os.Exit(3)
		case "error":
			b.w.Response(gomocup.Response{Kind: gomocup.ReplyError, Text: "I cannot play"})
			return
		case "slow":
			time.Sleep(time.Hour)
		}
	}
	var free []gomocup.Point
	for y := 0; y < b.height; y++ {
		for x := 0; x < b.width; x++ {
			if p := (gomocup.Point{X: x, Y: y}); b.board[p] == 0 {
				free = append(free, p)
			}
		}
	}
	if len(free) == 0 {
		b.w.Response(gomocup.Response{Kind: gomocup.ReplyError, Text: "the board is full"})
		return
	}
	p := free[b.rng.IntN(len(free))]
	b.board[p] = 1
	b.moves++
	b.w.Response(gomocup.Move(p))
}
