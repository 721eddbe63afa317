package pbrain

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// fakeLoader hands out fake players; make (if set) builds the n-th (from
// 0), by default one that plays the first legal move.
type fakeLoader struct {
	make      func(n int) *refereetest.Player
	info      botapi.Info
	loadDelay func(n int) time.Duration

	mu      sync.Mutex
	players []*refereetest.Player
	closed  bool
}

func (l *fakeLoader) Load(ctx context.Context, name, _ string, opts map[string]string) (referee.Player, error) {
	l.mu.Lock()
	n := len(l.players)
	l.mu.Unlock()
	if l.loadDelay != nil {
		select {
		case <-time.After(l.loadDelay(n)):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	p := &refereetest.Player{}
	if l.make != nil {
		p = l.make(n)
	}
	p.Label = name
	p.SetOptions(opts)
	l.mu.Lock()
	l.players = append(l.players, p)
	l.mu.Unlock()
	return p, nil
}

func (l *fakeLoader) Default(context.Context, engine.Rules) (string, error) { return "fake", nil }

func (l *fakeLoader) Info(context.Context, string) (botapi.Info, error) { return l.info, nil }

func (l *fakeLoader) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

func (l *fakeLoader) player(n int) *refereetest.Player {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n < 0 {
		n += len(l.players)
	}
	return l.players[n]
}

func (l *fakeLoader) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.players)
}

// session is a Brain served over pipes.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
	msgs []string // MESSAGE and DEBUG lines seen
}

func newSession(t *testing.T, cfg Config) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	b := New(cfg)
	go func() {
		err := b.Serve(context.Background(), inR, outW)
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return after the end of input")
		}
	})
	return s
}

func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\r\n"); err != nil {
			s.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// answer reads the next line that is not MESSAGE or DEBUG.
func (s *session) answer() string {
	s.t.Helper()
	type line struct {
		s   string
		err error
	}
	for {
		ch := make(chan line, 1)
		go func() {
			l, err := s.out.ReadString('\n')
			ch <- line{strings.TrimRight(l, "\r\n"), err}
		}()
		select {
		case l := <-ch:
			if l.err != nil {
				s.t.Fatalf("read answer: %v", l.err)
			}
			if strings.HasPrefix(l.s, "MESSAGE ") || strings.HasPrefix(l.s, "DEBUG ") {
				s.msgs = append(s.msgs, l.s)
				continue
			}
			return l.s
		case <-time.After(10 * time.Second):
			s.t.Fatal("no answer within 10 s")
		}
	}
}
