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
  MOVES ? REASON               a bad line, or a position not solved in --timeout

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
	fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
	if len(fields) == 0 {
		return "", nil, false, nil
	}
	rules := pp.rules
	var ms []engine.Move
	if pp.digits {
		echo = fields[0]
		if ms, err = rules.ParseMoveList(echo); err != nil {
			return echo, nil, false, err
		}
	} else {
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
		stream, err := b.API().Solve(streamCtx)
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

// solveWindow returns the number of requests each of jobs workers keeps in
// flight: one worker queues many, so that easy positions (tens of
// microseconds each) never wait for a round trip; several queue few, so
// that no hard position waits behind another while a worker idles.
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
	window chan struct{} // a slot per request in flight
}

// runSolve reads positions from stdin (parse turns a line into a request
// or an error), hands each request to whichever worker has a free slot,
// and prints the answers in input order as soon as each is known.
func runSolve(ctx context.Context, workers []*solveWorker, stdin io.Reader, stdout, stderr io.Writer, parse func(string, uint64) solveLine, out solveOutput) int {
	start := time.Now()
	var positions, known, nodes int64
	var inBot time.Duration
	lines := make(chan solveLine, 64)                     // every line, in input order, to the printer
	work := make(chan botapi.SolveRequest, maxSolveBatch) // requests, to the first worker with a free slot
	replies := make(chan botapi.SolveReply, 64)
	failed := make(chan error, 2*len(workers)+1)
	go func() { // read stdin
		defer close(lines)
		defer close(work)
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		var id uint64
		for sc.Scan() {
			id++
			l := parse(sc.Text(), id)
			if l.err == "" {
				select {
				case work <- l.req:
				case <-ctx.Done():
					return
				}
			}
			select {
			case lines <- l:
			case <-ctx.Done():
				return
			}
		}
		if err := sc.Err(); err != nil {
			failed <- fmt.Errorf("read stdin: %w", err)
		}
	}()
	for _, wk := range workers {
		if bs, ok := wk.stream.(botapi.BatchSolveStream); ok {
			go wk.sendBatches(ctx, bs, work, failed)
			go wk.recvBatches(ctx, bs, replies, failed)
			continue
		}
		go func() { // send: one request per free slot
			defer wk.stream.CloseSend()
			for {
				req, ok := wk.next(ctx, work)
				if !ok {
					return
				}
				if err := wk.stream.Send(req); err != nil {
					failed <- fmt.Errorf("the bot stopped taking positions: %w", err)
					return
				}
			}
		}()
		go func() { // receive: each reply frees a slot
			for {
				r, err := wk.stream.Recv()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						failed <- fmt.Errorf("the bot stopped answering: %w", err)
					}
					return
				}
				<-wk.window
				select {
				case replies <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	done := map[uint64]botapi.SolveReply{}
	for {
		var l solveLine
		var more bool
		select { // flush what is printed only before waiting
		case l, more = <-lines:
		default:
			w.Flush()
			l, more = <-lines
		}
		if !more {
			break
		}
		if l.err != "" {
			fmt.Fprintf(w, "%s ? %s\n", l.text, l.err)
			continue
		}
		r, ok := done[l.req.ID]
		for !ok {
			w.Flush()
			select {
			case got := <-replies:
				done[got.ID] = got
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
		fmt.Fprintln(w, gtpfront.FormatSolve(l.text, r, out.analyze, out.weak))
		positions++
		nodes += r.Nodes
		inBot += r.Time
		if r.Known {
			known++
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

// next waits for a free slot, then takes the next request of work; false
// when ctx ends first or work is closed.
func (wk *solveWorker) next(ctx context.Context, work <-chan botapi.SolveRequest) (botapi.SolveRequest, bool) {
	select {
	case wk.window <- struct{}{}:
	case <-ctx.Done():
		return botapi.SolveRequest{}, false
	}
	req, ok := <-work
	return req, ok
}

// sendBatches sends the requests of work in batches: each takes what is
// ready, as many as the free slots allow, up to maxSolveBatch.
func (wk *solveWorker) sendBatches(ctx context.Context, bs botapi.BatchSolveStream, work <-chan botapi.SolveRequest, failed chan<- error) {
	defer bs.CloseSend()
	batch := make([]botapi.SolveRequest, 0, maxSolveBatch)
	for {
		req, ok := wk.next(ctx, work)
		if !ok {
			return
		}
		batch = append(batch[:0], req)
	more:
		for len(batch) < maxSolveBatch {
			select {
			case wk.window <- struct{}{}:
			default:
				break more
			}
			select {
			case req, ok := <-work:
				if ok {
					batch = append(batch, req)
					continue
				}
			default:
			}
			<-wk.window // nothing ready: give the slot back
			break
		}
		if err := bs.SendBatch(batch); err != nil {
			failed <- fmt.Errorf("the bot stopped taking positions: %w", err)
			return
		}
	}
}

// recvBatches passes on the replies, each freeing a slot.
func (wk *solveWorker) recvBatches(ctx context.Context, bs botapi.BatchSolveStream, replies chan<- botapi.SolveReply, failed chan<- error) {
	for {
		rs, err := bs.RecvBatch()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				failed <- fmt.Errorf("the bot stopped answering: %w", err)
			}
			return
		}
		for _, r := range rs {
			<-wk.window
			select {
			case replies <- r:
			case <-ctx.Done():
				return
			}
		}
	}
}
