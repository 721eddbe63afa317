package solve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/protocol/botapi"
)

// fakeSolveStream answers each request with its move count as the score,
// as a bot of protocol version 1 does (a request and a reply at a time).
// Replies may come out of order: each batch received is answered last
// request first.
type fakeSolveStream struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queued  [][]botapi.SolveReply // answers not yet received
	closed  bool
	pending []botapi.SolveReply
	sent    []int // requests per message
}

func newFakeSolveStream() *fakeSolveStream {
	s := &fakeSolveStream{}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *fakeSolveStream) answer(reqs []botapi.SolveRequest) {
	rs := make([]botapi.SolveReply, len(reqs))
	for i, r := range reqs {
		rs[len(reqs)-1-i] = botapi.SolveReply{ID: r.ID, Known: true, Score: len(r.MoveList)}
	}
	s.mu.Lock()
	s.queued = append(s.queued, rs)
	s.sent = append(s.sent, len(reqs))
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *fakeSolveStream) Send(r botapi.SolveRequest) error {
	s.answer([]botapi.SolveRequest{r})
	return nil
}

func (s *fakeSolveStream) CloseSend() error {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	return nil
}

func (s *fakeSolveStream) RecvBatch() ([]botapi.SolveReply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queued) == 0 && !s.closed {
		s.cond.Wait()
	}
	if len(s.queued) == 0 {
		return nil, io.EOF
	}
	b := s.queued[0]
	s.queued = s.queued[1:]
	return b, nil
}

func (s *fakeSolveStream) Recv() (botapi.SolveReply, error) {
	for len(s.pending) == 0 {
		b, err := s.RecvBatch()
		if err != nil {
			return botapi.SolveReply{}, err
		}
		s.pending = b
	}
	r := s.pending[0]
	s.pending = s.pending[1:]
	return r, nil
}

// fakeBatchStream is fakeSolveStream taking batches, as a bot of
// protocol version 2 does.
type fakeBatchStream struct{ *fakeSolveStream }

func (s fakeBatchStream) SendBatch(reqs []botapi.SolveRequest) error {
	s.answer(append([]botapi.SolveRequest(nil), reqs...))
	return nil
}

// testSolveParse reads a line of digits as kinrow solve does for
// Connect-4, with 'x' in a line making it a bad line.
func testSolveParse(line string, id uint64) solveLine {
	if strings.Contains(line, "x") {
		return solveLine{text: line, err: "bad line"}
	}
	return solveLine{text: line, req: botapi.SolveRequest{ID: id, MoveList: line}}
}

// TestRunSolveKeepsInputOrder: whatever the workers (one or several, of
// either protocol version) and the order of their replies, every line is
// answered, in input order, bad lines in their place.
func TestRunSolveKeepsInputOrder(t *testing.T) {
	var in, want strings.Builder
	for i := range 1000 {
		line := strings.Repeat("4", i%20)
		if i%97 == 5 {
			line = "44x"
			fmt.Fprintf(&want, "%s ? bad line\n", line)
		} else {
			fmt.Fprintf(&want, "%s\n", strings.TrimLeft(line+" "+strconv.Itoa(len(line)), " "))
		}
		fmt.Fprintln(&in, line)
	}
	for _, tc := range []struct {
		name    string
		jobs    int
		batches bool
	}{
		{"one worker, batches", 1, true},
		{"one worker, version 1", 1, false},
		{"three workers, batches", 3, true},
		{"two workers, version 1", 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			workers := make([]*worker, tc.jobs)
			fakes := make([]*fakeSolveStream, tc.jobs)
			for i := range workers {
				fakes[i] = newFakeSolveStream()
				var s botapi.SolveStream = fakes[i]
				if tc.batches {
					s = fakeBatchStream{fakes[i]}
				}
				workers[i] = &worker{stream: s, window: make(chan struct{}, windowSize(tc.jobs))}
			}
			var out strings.Builder
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := run(ctx, workers, strings.NewReader(in.String()), &out, testSolveParse, Config{}); err != nil {
				t.Fatal(err)
			}
			if out.String() != want.String() {
				t.Fatalf("answers differ from the input's order:\n%.300s\nwant\n%.300s", out.String(), want.String())
			}
			for i, f := range fakes {
				f.mu.Lock()
				for _, n := range f.sent {
					if n > MaxBatch {
						t.Errorf("worker %d: a message of %d positions, more than %d", i, n, MaxBatch)
					}
				}
				if tc.batches && tc.jobs == 1 && len(f.sent) > 1000/MaxBatch+5 {
					t.Errorf("one worker sent %d messages for 1000 lines: the batches are not filled", len(f.sent))
				}
				f.mu.Unlock()
			}
		})
	}
}

// TestReadSolveChunks: a chunk goes when it is full or when nothing more
// is read ahead, so that a line typed by hand is answered at once.
func TestReadSolveChunks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	chunks := make(chan chunk, 16)
	work := make(chan []botapi.SolveRequest, 16)
	failed := make(chan error, 1)
	go readChunks(ctx, pr, MaxBatch, testSolveParse, chunks, work, failed)
	// One line, the writer still open: its chunk must come now.
	if _, err := io.WriteString(pw, "4455\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-chunks:
		if len(c.lines) != 1 || c.lines[0].text != "4455" || len(c.reqs) != 1 {
			t.Fatalf("first chunk %+v, want the one line typed", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a line typed alone waits for more input")
	}
	<-work
	// Many lines at once: full chunks, and a bad line kept among the lines
	// but not among the requests; the last line without its newline.
	var big strings.Builder
	for i := range 3*MaxBatch + 10 {
		if i == 7 {
			big.WriteString("x\n")
			continue
		}
		big.WriteString("1234\n")
	}
	big.WriteString("77")
	go func() {
		w := bufio.NewWriterSize(pw, 1<<16)
		w.WriteString(big.String())
		w.Flush()
		pw.Close()
	}()
	var lines, reqs, full int
	for c := range chunks {
		lines += len(c.lines)
		reqs += len(c.reqs)
		if len(c.lines) > MaxBatch {
			t.Errorf("a chunk of %d lines, more than %d", len(c.lines), MaxBatch)
		}
		if len(c.lines) == MaxBatch {
			full++
		}
	}
	if want := 3*MaxBatch + 11; lines != want || reqs != want-1 {
		t.Errorf("%d lines and %d requests in the chunks, want %d and %d", lines, reqs, want, want-1)
	}
	if full < 2 {
		t.Errorf("%d full chunks of %d lines written at once, want at least 2", full, 3*MaxBatch+11)
	}
	select {
	case err := <-failed:
		t.Errorf("reader failed: %v", err)
	default:
	}
}

// TestSolveLongLineIsABadLine: a line over MaxLine is answered as a
// bad line, named by its first bytes, and the lines after it are still
// solved (before, it ended the run: "token too long").
func TestSolveLongLineIsABadLine(t *testing.T) {
	long := strings.Repeat("4", MaxLine+1)
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"between two lines", "44\n" + long + "\n4455\n", []string{"44 2", strings.Repeat("4", 32) + "… ? line 2 is longer than 1048576 bytes", "4455 4"}},
		{"last, without newline", "44\n" + long, []string{"44 2", strings.Repeat("4", 32) + "… ? line 2 is longer"}},
		{"exactly the most", strings.Repeat("1", MaxLine-1) + "\n", []string{strings.Repeat("1", MaxLine-1) + " " + strconv.Itoa(MaxLine-1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeSolveStream()
			workers := []*worker{{stream: fakeBatchStream{f}, window: make(chan struct{}, windowSize(1))}}
			var out strings.Builder
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := run(ctx, workers, strings.NewReader(tc.in), &out, testSolveParse, Config{}); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("%d answers, want %d: %.200q", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("answer %d: %.120q, want %.120q…", i+1, got[i], w)
				}
			}
		})
	}
}
