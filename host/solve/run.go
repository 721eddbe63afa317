package solve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Config is what Run asks the bots and prints.
type Config struct {
	// Rules is the game of every position.
	Rules engine.Rules
	// Analyze asks the score of every move, Weak only win, draw or loss.
	Analyze, Weak bool
	// Timeout bounds each position (0: no limit).
	Timeout time.Duration
	// Options are the bot's options, sent with every position.
	Options map[string]string
}

// Stats are a run's figures.
type Stats struct {
	Positions, Known, Nodes int64
	// InBot is the solver's own time in the bots, Took the run's.
	InBot, Took time.Duration
}

// Write prints the figures as kinrow solve --stats does (nothing when no
// position was answered).
func (s Stats) Write(w io.Writer, who string) {
	if s.Positions == 0 {
		return
	}
	n, took := float64(s.Positions), s.Took.Seconds()
	fmt.Fprintf(w, "%s: %d positions (%d solved) in %.3f s: %.0f positions/s, %.3f ms and %.0f nodes per position\n",
		who, s.Positions, s.Known, took, n/took, took*1000/n, float64(s.Nodes)/n)
	fmt.Fprintf(w, "%s: the solver's own time in the bot: %.2f µs per position (%.3f s in all)\n",
		who, float64(s.InBot.Nanoseconds())/1000/n, s.InBot.Seconds())
}

// Run reads positions from in, one a line, solves them on the streams
// (one per bot process; each takes the next positions as it frees up) and
// prints each answer on out in input order as soon as it is known. It
// returns when in ends and every answer is printed, or on the first error
// of a stream or of reading in, or when ctx ends. The streams are closed
// for sending when Run returns.
func Run(ctx context.Context, streams []botapi.SolveStream, cfg Config, in io.Reader, out io.Writer) (Stats, error) {
	if len(streams) == 0 {
		return Stats{}, errors.New("solve: no bot stream")
	}
	workers := make([]*worker, len(streams))
	for i, s := range streams {
		workers[i] = &worker{stream: s, window: make(chan struct{}, windowSize(len(streams)))}
	}
	rulesName := cfg.Rules.String()
	// A bot of plugin protocol version 2 takes a move list as one string; a
	// bot built before gets a string per move.
	_, oneString := streams[0].(botapi.BatchSolveStream)
	pp := newPositionParser(cfg.Rules)
	parse := func(line string, id uint64) solveLine {
		echo, moves, list, err := pp.parse(line)
		l := solveLine{text: echo}
		if err != nil {
			l.err = err.Error()
			return l
		}
		l.req = botapi.SolveRequest{ID: id, Rules: rulesName, Moves: moves, Analyze: cfg.Analyze, Weak: cfg.Weak, Timeout: cfg.Timeout, Options: cfg.Options}
		if list {
			if oneString {
				l.req.MoveList = echo
			} else {
				l.req.Moves = splitDigits(echo)
			}
		}
		return l
	}
	return run(ctx, workers, in, out, parse, cfg)
}

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

// chunkSize is the most positions read into one chunk. One worker takes
// chunks of many positions, so that easy positions (microseconds each)
// never wait for a round trip; several take few, so that no hard position
// waits behind another while a worker idles.
func chunkSize(jobs int) int {
	if jobs == 1 {
		return MaxBatch
	}
	return 1
}

// windowSize returns the number of positions each of jobs workers keeps
// in flight.
func windowSize(jobs int) int {
	if jobs == 1 {
		return 4 * MaxBatch
	}
	return 8
}

// MaxBatch bounds the positions sent in one message to a bot that takes
// batches (plugin protocol version 2): enough to make a message's cost
// small beside the positions', few enough to keep several batches in
// flight so that the bot never waits for the next.
const MaxBatch = 64

// MaxLine is the longest input line Run reads: far more than the longest
// move list of the largest board (70×70: 4,900 moves).
const MaxLine = 1 << 20

// chunk is lines read together, in input order, and the requests among
// them (the lines that parsed).
type chunk struct {
	lines []solveLine
	reqs  []botapi.SolveRequest
}

// run reads positions (parse turns a line into a request or an error) in
// chunks, hands each chunk's requests to whichever worker has free slots,
// and prints the answers in input order as soon as each is known.
func run(ctx context.Context, workers []*worker, in io.Reader, out io.Writer, parse func(string, uint64) solveLine, cfg Config) (Stats, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx) // ends the reader and the workers on return
	defer cancel()
	var st Stats
	chunks := make(chan chunk, 16)                // every chunk, in input order, to the printer
	work := make(chan []botapi.SolveRequest, 16)  // requests, to the first worker with free slots
	replies := make(chan []botapi.SolveReply, 16) // answers, as they come
	failed := make(chan error, 2*len(workers)+1)
	go readChunks(ctx, in, chunkSize(len(workers)), parse, chunks, work, failed)
	for _, wk := range workers {
		go wk.send(ctx, work, failed)
		go wk.receive(ctx, replies, failed)
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	done := map[uint64]botapi.SolveReply{}
	var line []byte
	for {
		var c chunk
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
					return st, err
				case <-ctx.Done():
					return st, ctx.Err()
				}
			}
			delete(done, l.req.ID)
			line = gtpfront.AppendSolve(line[:0], l.text, r, cfg.Analyze, cfg.Weak)
			line = append(line, '\n')
			w.Write(line)
			st.Positions++
			st.Nodes += r.Nodes
			st.InBot += r.Time
			if r.Known {
				st.Known++
			}
		}
	}
	select {
	case err := <-failed:
		return st, err
	default:
	}
	st.Took = time.Since(start)
	if err := w.Flush(); err != nil {
		return st, fmt.Errorf("write the answers: %w", err)
	}
	return st, nil
}

// readChunks reads in's lines into chunks of up to size lines, each
// passed to the printer (chunks) and its requests to the workers (work).
// A chunk goes as soon as it is full or nothing more has been read ahead:
// a line typed by hand is answered at once.
func readChunks(ctx context.Context, in io.Reader, size int, parse func(string, uint64) solveLine, chunks chan<- chunk, work chan<- []botapi.SolveRequest, failed chan<- error) {
	defer close(chunks)
	defer close(work)
	r := bufio.NewReaderSize(in, 64<<10)
	c := chunk{}
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
		c = chunk{}
		return true
	}
	var id uint64
	for {
		text, long, err := readLine(r)
		if len(text) > 0 || err == nil {
			id++
			var l solveLine
			if long {
				l = solveLine{text: text, err: fmt.Sprintf("line %d is longer than %d bytes, the most a line may hold; it is skipped", id, MaxLine)}
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

// readLine reads the next line of r with its newline. A line longer than
// MaxLine is read to its end and dropped: long is true and line holds its
// first 32 bytes and "…", to name it.
func readLine(r *bufio.Reader) (line string, long bool, err error) {
	var b []byte
	for {
		part, err := r.ReadSlice('\n')
		if !long {
			if b = append(b, part...); len(b) > MaxLine {
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
