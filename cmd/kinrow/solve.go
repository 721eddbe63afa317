package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/protocol/botapi"
)

const solveUsage = `Usage: kinrow solve [--bot alphabeta] [--rules RULES] [--analyze] [--weak] [--timeout D] [--jobs N] [--stats]

Reads positions from stdin, one per line: a move list from the empty board
(digits for Connect-X up to 9 columns, as in Connect-4 solvers' test files,
otherwise moves separated by spaces or commas; the move list ends at the
first field that is not a move, and the rest of the line is ignored; an
empty line is the empty board). Prints, as soon as each is known, in input
order:

  MOVES SCORE                  the exact score for the side to move
  MOVES SCORE S1 ... SC        with --analyze: the score of each column ('-': full)
  MOVES 1|0|-1                 with --weak: win, draw or loss only
  MOVES ? REASON               a bad line (one longer than 1 MiB too, named
                               by its first 32 bytes), or a position not
                               solved in --timeout

Scores: positive, the side to move wins (the earlier the higher: on R×C,
floor((R·C+1)/2) + 1 − its stones at the win, 22 − stones on 6×7); 0, draw;
negative, it loses. Positions stream to one bot process over one
connection, or with --jobs N to N processes, each taking the next position
as it frees up; answers still come in input order.

Flags:
`

// solveLine is one input line: its echo text, and the request or an error.
type solveLine struct {
	text string
	req  botapi.SolveRequest
	err  string
}

// splitDigits splits a move list of digits into moves.
func splitDigits(s string) []string {
	moves := make([]string, len(s))
	for i := range s {
		moves[i] = s[i : i+1]
	}
	return moves
}

// positionParser reads the positions of kinrow solve's input lines under
// one rules, checking each on a board it rewinds for the next (one board
// for the run, not one per line).
type positionParser struct {
	rules engine.Rules
	// digits: Connect-X up to 9 columns, where a move list is a string of
	// column digits, sent to the bot as it is.
	digits bool
	pos    *engine.Position
}

func newPositionParser(rules engine.Rules) *positionParser {
	return &positionParser{rules: rules, digits: rules.Gravity() && rules.Cols <= 9, pos: engine.NewPosition(rules)}
}

// parse reads the move list at the start of a line: its echo, and its
// moves in notation, or list true when the echo is a move list of digits
// standing for them.
func (pp *positionParser) parse(line string) (echo string, moves []string, list bool, err error) {
	rules := pp.rules
	var ms []engine.Move
	if pp.digits {
		// The first field alone, found without splitting the line.
		isSep := func(r rune) bool { return r == ',' || unicode.IsSpace(r) }
		echo = strings.TrimLeftFunc(line, isSep)
		if i := strings.IndexFunc(echo, isSep); i >= 0 {
			echo = echo[:i]
		}
		if echo == "" {
			return "", nil, false, nil
		}
		if ms, err = rules.ParseMoveList(echo); err != nil {
			return echo, nil, false, err
		}
	} else {
		fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
		if len(fields) == 0 {
			return "", nil, false, nil
		}
		var used []string
		for _, f := range fields {
			m, err := rules.ParseMove(f)
			if err != nil {
				break
			}
			ms = append(ms, m)
			used = append(used, f)
		}
		echo = strings.Join(used, " ")
		if len(used) == 0 && !strings.HasPrefix(strings.TrimSpace(line), "-") {
			_, err := rules.ParseMove(fields[0])
			return fields[0], nil, false, err
		}
	}
	for pp.pos.Ply() > 0 {
		pp.pos.Undo()
	}
	if err := pp.pos.PlayMoveList(ms); err != nil {
		return echo, nil, false, err
	}
	if pp.digits {
		return echo, nil, echo != "", nil // the echo is the move list: sent as one string
	}
	moves = make([]string, len(ms))
	for i, m := range ms {
		moves[i] = rules.FormatMove(m)
	}
	return echo, moves, false, nil
}

func solveCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, solveUsage); fs.PrintDefaults() }
	var hf hostFlags
	hf.register(fs)
	bot := fs.String("bot", "alphabeta", "the bot that solves")
	rulesText := fs.String("rules", "connect4", "the game: "+engine.RulesSyntax)
	analyze := fs.Bool("analyze", false, "score every move of each position")
	weak := fs.Bool("weak", false, "only win (1), draw (0) or loss (-1)")
	timeout := fs.Duration("timeout", 0, "give up on a position after this long (0: no limit)")
	stats := fs.Bool("stats", false, "print the run's figures on stderr at the end: positions/s, mean time and nodes per position")
	jobs := fs.Int("jobs", 1, "bot processes solving at once, each with its own table (at most one per core pays)")
	var opts listFlag
	fs.Var(&opts, "bot-opt", "an option for the bot, KEY=VALUE (repeatable)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinrow solve: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	rules, err := engine.ParseRules(*rulesText)
	if err != nil {
		return bad("--rules: %v", err)
	}
	botOpts := map[string]string{}
	for _, kv := range opts {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return bad("--bot-opt %q: want KEY=VALUE", kv)
		}
		botOpts[k] = v
	}
	log, err := hf.logger(stderr)
	if err != nil {
		return bad("%v", err)
	}
	loader, err := hf.loader(log)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow solve:", err)
		return 1
	}
	defer loader.Close()
	if *jobs < 1 || *jobs > 64 {
		return bad("--jobs %d: want 1 to 64 bot processes", *jobs)
	}
	streamCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := make([]*solveWorker, *jobs)
	for i := range workers {
		display := *bot
		if i > 0 {
			display = fmt.Sprintf("%s#%d", *bot, i+1)
		}
		b, err := loader.Start(ctx, *bot, display, botOpts)
		if err != nil {
			return bad("--bot: %v", err)
		}
		defer b.Close()
		stream, err := b.Solve(streamCtx)
		if err != nil {
			return bad("--bot %s cannot solve: %v", *bot, err)
		}
		workers[i] = &solveWorker{stream: stream, window: make(chan struct{}, solveWindow(*jobs))}
	}
	rulesName := rules.String()
	// A bot of plugin protocol version 2 takes a move list as one string; a
	// bot built before gets a string per move.
	_, oneString := workers[0].stream.(botapi.BatchSolveStream)
	pp := newPositionParser(rules)
	return runSolve(streamCtx, workers, stdin, stdout, stderr, func(line string, id uint64) solveLine {
		echo, moves, list, err := pp.parse(line)
		l := solveLine{text: echo}
		if err != nil {
			l.err = err.Error()
		} else {
			l.req = botapi.SolveRequest{ID: id, Rules: rulesName, Moves: moves, Analyze: *analyze, Weak: *weak, Timeout: *timeout, Options: botOpts}
			if list {
				if oneString {
					l.req.MoveList = echo
				} else {
					l.req.Moves = splitDigits(echo)
				}
			}
		}
		return l
	}, solveOutput{analyze: *analyze, weak: *weak, stats: *stats})
}

// solveOutput says what runSolve prints: the fields of each answer and, on
// stderr at the end, the run's figures.
type solveOutput struct {
	analyze, weak, stats bool
}

// solveChunkSize is the most positions read into one chunk: the unit
// the reader, the workers and the printer hand each other, so that a hand-
// over between goroutines (a possible wake-up of a thread) is paid per
// chunk, not per position. One worker takes chunks of many positions, so
// that easy positions (microseconds each) never wait for a round trip;
// several take few, so that no hard position waits behind another while a
// worker idles.
func solveChunkSize(jobs int) int {
	if jobs == 1 {
		return maxSolveBatch
	}
	return 1
}

// solveWindow returns the number of positions each of jobs workers keeps
// in flight.
func solveWindow(jobs int) int {
	if jobs == 1 {
		return 4 * maxSolveBatch
	}
	return 8
}

// maxSolveBatch bounds the positions sent in one message to a bot that
// takes batches (plugin protocol version 2): enough to make a message's
// cost small beside the positions', few enough to keep several batches in
// flight so that the bot never waits for the next.
const maxSolveBatch = 64

// solveWorker is one bot process solving over its own stream.
type solveWorker struct {
	stream botapi.SolveStream
	window chan struct{} // a slot per position in flight
}

// solveChunk is lines read together, in input order, and the requests
// among them (the lines that parsed).
type solveChunk struct {
	lines []solveLine
	reqs  []botapi.SolveRequest
}

// runSolve reads positions from stdin (parse turns a line into a request
// or an error) in chunks, hands each chunk's requests to whichever worker
// has free slots, and prints the answers in input order as soon as each is
// known.
func runSolve(ctx context.Context, workers []*solveWorker, stdin io.Reader, stdout, stderr io.Writer, parse func(string, uint64) solveLine, out solveOutput) int {
	start := time.Now()
	var positions, known, nodes int64
	var inBot time.Duration
	chunk := solveChunkSize(len(workers))
	chunks := make(chan solveChunk, 16)           // every chunk, in input order, to the printer
	work := make(chan []botapi.SolveRequest, 16)  // requests, to the first worker with free slots
	replies := make(chan []botapi.SolveReply, 16) // answers, as they come
	failed := make(chan error, 2*len(workers)+1)
	go readSolveChunks(ctx, stdin, chunk, parse, chunks, work, failed)
	for _, wk := range workers {
		go wk.send(ctx, work, failed)
		go wk.receive(ctx, replies, failed)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	done := map[uint64]botapi.SolveReply{}
	var line []byte
	for {
		var c solveChunk
		var more bool
		select { // flush what is printed only before waiting
		case c, more = <-chunks:
		default:
			w.Flush()
			c, more = <-chunks
		}
		if !more {
			break
		}
		for _, l := range c.lines {
			if l.err != "" {
				fmt.Fprintf(w, "%s ? %s\n", l.text, l.err)
				continue
			}
			r, ok := done[l.req.ID]
			for !ok {
				w.Flush()
				select {
				case got := <-replies:
					for _, g := range got {
						done[g.ID] = g
					}
					r, ok = done[l.req.ID]
				case err := <-failed:
					fmt.Fprintln(stderr, "kinrow solve:", err)
					return 1
				case <-ctx.Done():
					fmt.Fprintln(stderr, "kinrow solve:", ctx.Err())
					return 1
				}
			}
			delete(done, l.req.ID)
			line = gtpfront.AppendSolve(line[:0], l.text, r, out.analyze, out.weak)
			line = append(line, '\n')
			w.Write(line)
			positions++
			nodes += r.Nodes
			inBot += r.Time
			if r.Known {
				known++
			}
		}
	}
	select {
	case err := <-failed:
		fmt.Fprintln(stderr, "kinrow solve:", err)
		return 1
	default:
	}
	if out.stats && positions > 0 {
		took := time.Since(start)
		fmt.Fprintf(stderr, "kinrow solve: %d positions (%d solved) in %.3f s: %.0f positions/s, %.3f ms and %.0f nodes per position\n",
			positions, known, took.Seconds(), float64(positions)/took.Seconds(),
			took.Seconds()*1000/float64(positions), float64(nodes)/float64(positions))
		fmt.Fprintf(stderr, "kinrow solve: the solver's own time in the bot: %.2f µs per position (%.3f s in all)\n",
			float64(inBot.Nanoseconds())/1000/float64(positions), inBot.Seconds())
	}
	return 0
}

// readSolveChunks reads stdin's lines into chunks of up to size lines,
// each passed to the printer (chunks) and its requests to the workers
// (work). A chunk goes as soon as it is full or nothing more has been read
// ahead: a line typed by hand is answered at once.
func readSolveChunks(ctx context.Context, stdin io.Reader, size int, parse func(string, uint64) solveLine, chunks chan<- solveChunk, work chan<- []botapi.SolveRequest, failed chan<- error) {
	defer close(chunks)
	defer close(work)
	r := bufio.NewReaderSize(stdin, 64<<10)
	c := solveChunk{}
	emit := func() bool {
		if len(c.reqs) > 0 {
			select {
			case work <- c.reqs:
			case <-ctx.Done():
				return false
			}
		}
		select {
		case chunks <- c:
		case <-ctx.Done():
			return false
		}
		c = solveChunk{}
		return true
	}
	var id uint64
	for {
		text, long, err := readSolveLine(r)
		if len(text) > 0 || err == nil {
			id++
			var l solveLine
			if long {
				l = solveLine{text: text, err: fmt.Sprintf("line %d is longer than %d bytes, the most a line may hold; it is skipped", id, maxSolveLine)}
			} else {
				l = parse(strings.TrimRight(text, "\r\n"), id)
			}
			if l.err == "" {
				c.reqs = append(c.reqs, l.req)
			}
			c.lines = append(c.lines, l)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				failed <- fmt.Errorf("read stdin: %w", err)
			}
			if len(c.lines) > 0 {
				emit()
			}
			return
		}
		if len(c.lines) >= size || r.Buffered() == 0 {
			if !emit() {
				return
			}
		}
	}
}

// maxSolveLine is the longest input line kinrow solve reads: far more
// than the longest move list of the largest board (70×70: 4,900 moves).
const maxSolveLine = 1 << 20

// readSolveLine reads the next line of r with its newline. A line longer
// than maxSolveLine is read to its end and dropped: long is true and line
// holds its first 32 bytes and "…", to name it.
func readSolveLine(r *bufio.Reader) (line string, long bool, err error) {
	var b []byte
	for {
		part, err := r.ReadSlice('\n')
		if !long {
			if b = append(b, part...); len(b) > maxSolveLine {
				long, b = true, b[:32]
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if long {
				return string(b) + "…", true, err
			}
			return string(b), false, err
		}
	}
}

// take waits for work's next requests and for free slots for them: false
// when ctx ends first or work is closed.
func (wk *solveWorker) take(ctx context.Context, work <-chan []botapi.SolveRequest) ([]botapi.SolveRequest, bool) {
	var reqs []botapi.SolveRequest
	select {
	case r, ok := <-work:
		if !ok {
			return nil, false
		}
		reqs = r
	case <-ctx.Done():
		return nil, false
	}
	return reqs, wk.acquire(ctx, len(reqs))
}

// acquire waits for n free slots: false when ctx ends first.
func (wk *solveWorker) acquire(ctx context.Context, n int) bool {
	for range n {
		select {
		case wk.window <- struct{}{}:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// send sends the requests of work: to a bot that takes batches, a message
// takes what is ready as the free slots allow, in messages of at most
// maxSolveBatch positions; to another, one request a message.
func (wk *solveWorker) send(ctx context.Context, work <-chan []botapi.SolveRequest, failed chan<- error) {
	defer wk.stream.CloseSend()
	bs, batches := wk.stream.(botapi.BatchSolveStream)
	var batch []botapi.SolveRequest
	for {
		reqs, ok := wk.take(ctx, work)
		if !ok {
			return
		}
		if !batches {
			for _, r := range reqs {
				if err := wk.stream.Send(r); err != nil {
					failed <- fmt.Errorf("the bot stopped taking positions: %w", err)
					return
				}
			}
			continue
		}
		batch = append(batch[:0], reqs...)
	more: // a worker of many takes chunks of one: join what else is ready
		for len(batch) < maxSolveBatch && len(wk.window) < cap(wk.window) {
			select {
			case reqs, ok := <-work:
				if !ok {
					break more
				}
				if !wk.acquire(ctx, len(reqs)) {
					return
				}
				batch = append(batch, reqs...)
			default:
				break more
			}
		}
		for b := batch; len(b) > 0; {
			n := min(len(b), maxSolveBatch)
			if err := bs.SendBatch(b[:n]); err != nil {
				failed <- fmt.Errorf("the bot stopped taking positions: %w", err)
				return
			}
			b = b[n:]
		}
	}
}

// receive passes on the replies as they come, each freeing a slot.
func (wk *solveWorker) receive(ctx context.Context, replies chan<- []botapi.SolveReply, failed chan<- error) {
	bs, batches := wk.stream.(botapi.BatchSolveStream)
	for {
		var rs []botapi.SolveReply
		var err error
		if batches {
			rs, err = bs.RecvBatch()
		} else {
			var r botapi.SolveReply
			if r, err = wk.stream.Recv(); err == nil {
				rs = []botapi.SolveReply{r}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				failed <- fmt.Errorf("the bot stopped answering: %w", err)
			}
			return
		}
		for range rs {
			<-wk.window
		}
		select {
		case replies <- rs:
		case <-ctx.Done():
			return
		}
	}
}
