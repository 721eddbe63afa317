package pbrain

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// fakePlayer is an in-process bot: it keeps its own board and plays what
// its genmove function says (by default the first legal move, a1 first).
type fakePlayer struct {
	name    string
	opts    map[string]string
	genmove func(ctx context.Context, pos *engine.Position) (string, error)

	mu     sync.Mutex
	pos    *engine.Position
	setups []referee.Setup
	killed bool
}

func (p *fakePlayer) Name() string { return p.name }

func (p *fakePlayer) NewGame(_ context.Context, s referee.Setup) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setups = append(p.setups, s)
	p.pos = engine.NewPosition(s.Rules)
	return p.pos.PlayMoveList(s.Moves)
}

func (p *fakePlayer) Play(_ context.Context, m engine.Move) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos.Apply(m)
}

func (p *fakePlayer) Undo(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.pos.Undo(); !ok {
		return errors.New("nothing to undo")
	}
	return nil
}

func (p *fakePlayer) GenMove(ctx context.Context, _ referee.MoveRequest) (string, error) {
	p.mu.Lock()
	pos := p.pos.Clone()
	p.mu.Unlock()
	var text string
	var err error
	if p.genmove != nil {
		text, err = p.genmove(ctx, pos)
	} else {
		text = pos.Rules().FormatMove(pos.LegalMoves(nil)[0])
	}
	if err != nil {
		return "", err
	}
	if m, perr := pos.Rules().ParseMove(text); perr == nil {
		p.mu.Lock()
		_ = p.pos.Apply(m)
		p.mu.Unlock()
	}
	return text, nil
}

func (p *fakePlayer) Exit() (bool, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed, "killed"
}

func (p *fakePlayer) Kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
}

func (p *fakePlayer) Close() { p.Kill() }

// moves returns the player's board as the brain told it.
func (p *fakePlayer) moves() []engine.Move {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos.Moves(nil)
}

// fakeLoader hands out fakePlayers; make (if set) builds the n-th (from 0),
// wrap (if set) wraps it.
type fakeLoader struct {
	make      func(n int) *fakePlayer
	wrap      func(p *fakePlayer) referee.Player
	info      botapi.Info
	loadDelay func(n int) time.Duration

	mu      sync.Mutex
	players []*fakePlayer
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
	p := &fakePlayer{name: name}
	if l.make != nil {
		p = l.make(n)
		p.name = name
	}
	p.opts = opts
	l.mu.Lock()
	l.players = append(l.players, p)
	l.mu.Unlock()
	if l.wrap != nil {
		return l.wrap(p), nil
	}
	return p, nil
}

func (l *fakeLoader) Default(context.Context, engine.Rules) (string, error) { return "fake", nil }

func (l *fakeLoader) Info(context.Context, string) (botapi.Info, error) { return l.info, nil }

func (l *fakeLoader) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

func (l *fakeLoader) player(n int) *fakePlayer {
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

// progressFake is a fakePlayer that reports progress before its genmove.
type progressFake struct {
	*fakePlayer
	reports []botapi.Progress
}

func (p *progressFake) GenMoveProgress(ctx context.Context, req referee.MoveRequest, progress func(botapi.Progress)) (string, error) {
	for _, r := range p.reports {
		progress(r)
	}
	return p.GenMove(ctx, req)
}
