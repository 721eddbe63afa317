package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kinrow/kinrow/engine"
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

	// Timing like a real engine's (Rapfi's).
	startDelay time.Duration // before OK to START, RECTSTART, RESTART
	infoDelay  time.Duration // reading INFO max_memory (Rapfi sizes its hash table)
	firstOver  time.Duration // the first search takes timeout_turn plus this
	laterUnder time.Duration // later searches take timeout_turn less this
	timeLimit  bool          // -first-over or -later-under given: searches take time
	turn       time.Duration // the last INFO timeout_turn
	searches   int
	race       time.Duration // CPU time "thinking" stays set after a move (see raceFilter)
	thinking   atomic.Bool
	noise      bool // junk, ERROR and OK lines before every move
	muteAbout  bool // no answer to ABOUT
}

func main() {
	mode := flag.String("mode", "random", "random, silent, junk, illegal, occupied, crash, error, huge (an 8 MiB MESSAGE line), flood (8 MiB of MESSAGE lines before the move), stray, slow or forbidden (a renju foul of its own when there is one)")
	after := flag.Int("after", 0, "good moves before misbehaving")
	pidfile := flag.String("pidfile", "", "write the process id to this file")
	transcript := flag.String("transcript", "", "append every line received to this file")
	square := flag.Bool("square", false, "refuse RECTSTART (UNKNOWN), as square-only brains do")
	ignoreEnd := flag.Bool("ignore-end", false, "do not exit at END nor at the end of input")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	startDelay := flag.Duration("start-delay", 0, "wait this long before OK to START, RECTSTART and RESTART")
	infoDelay := flag.Duration("info-delay", 0, "take this long over INFO max_memory")
	firstOver := flag.Duration("first-over", 0, "the first search takes timeout_turn plus this")
	laterUnder := flag.Duration("later-under", 0, "later searches take timeout_turn less this")
	race := flag.Duration("race", 0, "after each move stay \"thinking\" for this much CPU time, dropping the command word read meanwhile as Rapfi does")
	wholeReads := flag.Bool("whole-reads", false, "exit with status 5 when a read(2) of stdin does not end a line (a command split across writes)")
	noise := flag.Bool("noise", false, "write a junk line, an ERROR and an OK before every move")
	muteAbout := flag.Bool("mute-about", false, "answer nothing to ABOUT")
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
		rng: rand.New(rand.NewPCG(*seed, 1)), board: map[gomocup.Point]int{},
		startDelay: *startDelay, infoDelay: *infoDelay, firstOver: *firstOver, laterUnder: *laterUnder,
		timeLimit: *firstOver != 0 || *laterUnder != 0, turn: 30 * time.Second, race: *race, noise: *noise, muteAbout: *muteAbout}
	if *transcript != "" {
		f, err := os.OpenFile(*transcript, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gomocupbrain:", err)
			os.Exit(1)
		}
		b.log = f
	}
	fmt.Fprintln(os.Stderr, "gomocupbrain: ready, mode", *mode)
	var in io.Reader = os.Stdin
	if *wholeReads {
		in = wholeReader{os.Stdin}
	}
	if b.race > 0 {
		in = b.raceFilter(in)
	}
	r := gomocup.NewReader(in)
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
		time.Sleep(b.startDelay)
		b.w.Response(gomocup.OK())
	case gomocup.CmdRestart:
		clear(b.board)
		time.Sleep(b.startDelay)
		b.w.Response(gomocup.OK())
	case gomocup.CmdInfo:
		switch c.Key {
		case gomocup.InfoMaxMemory:
			time.Sleep(b.infoDelay)
		case gomocup.InfoTimeoutTurn:
			if ms, err := strconv.Atoi(c.Value); err == nil {
				b.turn = time.Duration(ms) * time.Millisecond
			}
		}
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
		if b.muteAbout {
			return
		}
		b.w.Response(gomocup.Response{Kind: gomocup.ReplyAbout, About: []gomocup.AboutField{{Key: "name", Value: "gomocupbrain"}}})
	case gomocup.CmdEnd:
		if !b.ignoreEnd {
			os.Exit(0)
		}
	default:
		b.w.Response(gomocup.Response{Kind: gomocup.ReplyUnknown, Text: c.Kind.String() + " is not supported"})
	}
}

// foul returns a free point that renju forbids to the brain's own stones
// (as black), if there is one.
func (b *brain) foul() (gomocup.Point, bool) {
	r, err := gomocup.BoardRules(b.width, b.height, gomocup.RuleRenju)
	if err != nil {
		return gomocup.Point{}, false
	}
	var own, opp []engine.Move
	for p, f := range b.board {
		if m, err := gomocup.ToMove(r, p); err == nil && f == 1 {
			own = append(own, m)
		} else if err == nil {
			opp = append(opp, m)
		}
	}
	if len(own) != len(opp) {
		return gomocup.Point{}, false
	}
	pos := engine.NewPosition(r)
	for i := range own {
		pos.Play(own[i])
		pos.Play(opp[i])
	}
	for m := engine.Move(0); int(m) < r.Cells(); m++ {
		if pos.Foul(m) != engine.NoFoul {
			p, _ := gomocup.FromMove(r, m)
			return p, true
		}
	}
	return gomocup.Point{}, false
}

// move answers a move request, misbehaving once after good moves.
func (b *brain) move() {
	if b.race > 0 {
		b.thinking.Store(true)
		defer func() { go b.settle() }()
	}
	b.w.Response(gomocup.Response{Kind: gomocup.ReplyMessage, Text: fmt.Sprintf("thinking about move %d", b.moves+1)})
	b.w.Response(gomocup.Response{Kind: gomocup.ReplyDebug, Text: fmt.Sprintf("%d stones", len(b.board))})
	if b.noise {
		fmt.Fprint(os.Stdout, "Searching... depth 12\n")
		b.w.Response(gomocup.Error("Unknown command: time_left"))
		b.w.Response(gomocup.OK())
	}
	if b.timeLimit {
		d := b.turn - b.laterUnder
		if b.searches == 0 {
			d = b.turn + b.firstOver
		}
		b.searches++
		time.Sleep(d)
	}
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
		case "huge":
			fmt.Fprintf(os.Stdout, "MESSAGE %s\n", strings.Repeat("x", 8<<20))
			return
		case "flood": // 8 MiB of MESSAGE lines, then the move
			msg := "MESSAGE " + strings.Repeat("flood ", 16) + "\n"
			w := bufio.NewWriterSize(os.Stdout, 1<<16)
			for n := 0; n < 8<<20; n += len(msg) {
				w.WriteString(msg)
			}
			w.Flush()
		case "stray":
			defer func() { b.w.Response(gomocup.Move(gomocup.Point{X: b.width - 1, Y: b.height - 1})) }()
		case "slow":
			time.Sleep(time.Hour)
		case "forbidden":
			if p, ok := b.foul(); ok {
				b.board[p] = 1
				b.moves++
				b.w.Response(gomocup.Move(p))
				return
			}
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

// settle spins for b.race of process CPU time, then clears thinking: like
// Rapfi's search thread, which writes its move and only then marks the
// search over. CPU time, not wall time: a stopped process (SIGSTOP) does
// not get any closer to clearing it.
func (b *brain) settle() {
	start := cpuTime()
	for cpuTime()-start < b.race {
	}
	b.thinking.Store(false)
}

// raceFilter passes in's lines on, except that a line read while the brain
// is still "thinking" after a move loses its first word, and each word
// after it becomes a command of its own (with a millisecond between), as in
// Rapfi's command loop, which reads a word with cin >> and drops it while
// its search is not marked over: "TURN 9,4" then answers "ERROR Unknown
// command: 9,4".
func (b *brain) raceFilter(in io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if !b.thinking.Load() {
				if _, err := io.WriteString(pw, line+"\n"); err != nil {
					return
				}
				continue
			}
			words := strings.Fields(line)
			b.note("dropped while thinking: " + line)
			for _, w := range words[min(1, len(words)):] {
				time.Sleep(time.Millisecond)
				if !b.thinking.Load() {
					b.w.Response(gomocup.Error("Unknown command: %s", w))
				}
			}
			time.Sleep(time.Millisecond)
		}
		pw.CloseWithError(sc.Err())
	}()
	return pr
}

// wholeReader exits with status 5 when a read ends inside a line: the
// manager wrote a command in pieces.
type wholeReader struct{ r io.Reader }

func (w wholeReader) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if n > 0 && p[n-1] != '\n' && n < len(p) {
		fmt.Fprintf(os.Stderr, "gomocupbrain: a read ended inside a line: %q\n", p[:n])
		os.Exit(5)
	}
	return n, err
}
