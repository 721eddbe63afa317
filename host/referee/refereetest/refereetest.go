package refereetest

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Player is a scripted in-process player. Set its fields before it is
// attached to a game (Set changes Slow and PlayErr later); it is safe for
// the referee's two goroutines (the game's and a mailbox's) and notes every
// call, so a test can check that calls never overlap.
type Player struct {
	// Label is the player's name (Name).
	Label string
	// Answer picks the answer to a move request from a copy of the
	// player's board; nil answers the first legal move. An answer that is
	// a legal move is played on the player's board, as a bot does.
	Answer func(ctx context.Context, pos *engine.Position) (string, error)
	// Reports are sent to the request's Progress before each answer; the
	// last one is the answer's search report.
	Reports []botapi.Progress
	// Refuse, if set, is asked at each NewGame with the number of the game
	// (from 1) and refuses the game with the error it returns.
	Refuse func(game int, s referee.Setup) error
	// Block makes Play and Undo hang until their ctx is done or the player
	// is killed, as a frozen (SIGSTOPped) process does.
	Block bool
	// Slow delays every Play; PlayErr fails every Play (see Set).
	Slow    time.Duration
	PlayErr error
	// Accounted makes Facts report the CPU time: NewGameCPU at each
	// NewGame and CPUPerMove at each GenMove.
	Accounted              bool
	NewGameCPU, CPUPerMove time.Duration
	// OverMemory and Tolerance are reported by Facts as they are.
	OverMemory bool
	Tolerance  time.Duration
	// ExitHow is how the player says it ended after Crash (default "exit
	// status 3").
	ExitHow string
	// ExitAtEnd makes the player's process end by itself once a game it
	// answered a move in is over.
	ExitAtEnd bool
	// OnGenMove, if set, runs at the start of every GenMove.
	OnGenMove func()
	// Solver, if set, answers Solve requests; nil: Solve is unsupported.
	Solver func(botapi.SolveRequest) botapi.SolveReply

	mu       sync.Mutex
	pos      *engine.Position
	setups   []referee.Setup
	opts     map[string]string
	exited   bool
	killed   bool
	released int
	dead     chan struct{} // closed by Kill
	calls    []string
	inflight int
	overlap  bool
	cpu      time.Duration
}

var _ referee.Player = (*Player)(nil)

// FirstLegal answers the first legal move.
func FirstLegal(_ context.Context, pos *engine.Position) (string, error) {
	return pos.Rules().FormatMove(pos.LegalMoves(nil)[0]), nil
}

// LastLegal answers the last legal move.
func LastLegal(_ context.Context, pos *engine.Position) (string, error) {
	legal := pos.LegalMoves(nil)
	return pos.Rules().FormatMove(legal[len(legal)-1]), nil
}

// Stall answers nothing until ctx ends.
func Stall(ctx context.Context, _ *engine.Position) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

func (p *Player) enter(call string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead == nil {
		p.dead = make(chan struct{})
	}
	p.calls = append(p.calls, call)
	p.inflight++
	if p.inflight > 1 {
		p.overlap = true
	}
}

func (p *Player) leave() {
	p.mu.Lock()
	p.inflight--
	p.mu.Unlock()
}

// hang blocks as a frozen process does, until ctx is done or p is killed.
func (p *Player) hang(ctx context.Context) error {
	p.mu.Lock()
	dead := p.dead
	p.mu.Unlock()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-dead:
		return fmt.Errorf("%w: killed", referee.ErrDisconnected)
	}
}

// Name is Label.
func (p *Player) Name() string { return p.Label }

// NewGame sets up the player's board, unless Refuse refuses the game.
func (p *Player) NewGame(_ context.Context, s referee.Setup) error {
	p.enter("newgame")
	defer p.leave()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killed || p.exited {
		return fmt.Errorf("%w: the player is gone", referee.ErrDisconnected)
	}
	p.setups = append(p.setups, s)
	if p.Refuse != nil {
		if err := p.Refuse(len(p.setups), s); err != nil {
			return err
		}
	}
	p.cpu += p.NewGameCPU
	pos := engine.NewPosition(s.Rules)
	if err := pos.PlayMoveList(s.Moves); err != nil {
		return err
	}
	p.pos = pos
	return nil
}

// Play plays m on the player's board.
func (p *Player) Play(ctx context.Context, m engine.Move) error {
	p.enter("play " + strconv.Itoa(int(m)))
	defer p.leave()
	if p.Block {
		return p.hang(ctx)
	}
	if err := ctx.Err(); err != nil { // as gRPC does
		return fmt.Errorf("rpc error: code = Canceled desc = %w", err)
	}
	p.mu.Lock()
	slow, playErr := p.Slow, p.PlayErr
	p.mu.Unlock()
	time.Sleep(slow)
	if playErr != nil {
		return playErr
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos.Apply(m)
}

// Undo takes back the last move on the player's board.
func (p *Player) Undo(ctx context.Context) error {
	p.enter("undo")
	defer p.leave()
	if p.Block {
		return p.hang(ctx)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.pos.Undo(); !ok {
		return fmt.Errorf("nothing to undo")
	}
	return nil
}

// GenMove sends Reports to req.Progress, then answers what Answer says and
// plays it on the player's board when it is a legal move.
func (p *Player) GenMove(ctx context.Context, req referee.MoveRequest) (referee.Answer, error) {
	p.enter("genmove")
	defer p.leave()
	if p.OnGenMove != nil {
		p.OnGenMove()
	}
	p.mu.Lock()
	p.cpu += p.CPUPerMove
	pos := p.pos.Clone()
	p.mu.Unlock()
	var ans referee.Answer
	for _, r := range p.Reports {
		if req.Progress != nil {
			req.Progress(r)
		}
		ans.Search = referee.SearchOf(r)
	}
	answer := p.Answer
	if answer == nil {
		answer = FirstLegal
	}
	text, err := answer(ctx, pos)
	if err != nil {
		return referee.Answer{}, err
	}
	ans.Move = text
	p.mu.Lock()
	defer p.mu.Unlock()
	if m, perr := p.pos.Rules().ParseMove(text); perr == nil && p.pos.Legal(m) {
		p.pos.Play(m)
		if p.ExitAtEnd && p.pos.Result() != engine.Open {
			p.exited = true
		}
	}
	return ans, nil
}

// Solve answers through Solver, or is unsupported.
func (p *Player) Solve(ctx context.Context) (botapi.SolveStream, error) {
	if p.Solver == nil {
		return nil, fmt.Errorf("%s cannot solve positions: %w", p.Label, referee.ErrUnsupported)
	}
	return &solveStream{ctx: ctx, solve: p.Solver}, nil
}

// solveStream answers each request at once, in order.
type solveStream struct {
	ctx     context.Context
	solve   func(botapi.SolveRequest) botapi.SolveReply
	replies []botapi.SolveReply
	closed  bool
}

func (s *solveStream) Send(r botapi.SolveRequest) error {
	s.replies = append(s.replies, s.solve(r))
	return nil
}

func (s *solveStream) CloseSend() error { s.closed = true; return nil }

func (s *solveStream) Recv() (botapi.SolveReply, error) {
	if err := s.ctx.Err(); err != nil {
		return botapi.SolveReply{}, err
	}
	if len(s.replies) == 0 {
		if s.closed {
			return botapi.SolveReply{}, io.EOF
		}
		return botapi.SolveReply{}, fmt.Errorf("recv before any request")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r, nil
}

// Facts reports the scripted facts: exited after Crash or Kill, the CPU
// time when Accounted.
func (p *Player) Facts() referee.Facts {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := referee.Facts{CPU: p.cpu, CPUKnown: p.Accounted, OverMemory: p.OverMemory, Tolerance: p.Tolerance}
	switch {
	case p.exited:
		f.Exited, f.How = true, p.ExitHow
		if f.How == "" {
			f.How = "exit status 3"
		}
	case p.killed:
		f.Exited, f.How = true, "killed by the host"
	}
	return f
}

// Crash makes the player's process end, as a crash does.
func (p *Player) Crash() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exited = true
}

// Kill stops the player: a blocked Play or Undo returns.
func (p *Player) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead == nil {
		p.dead = make(chan struct{})
	}
	p.released++
	if !p.killed {
		p.killed = true
		close(p.dead)
	}
}

// Close is Kill.
func (p *Player) Close() { p.Kill() }

// Set changes Slow and PlayErr while a mailbox may be delivering to p.
func (p *Player) Set(slow time.Duration, playErr error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Slow, p.PlayErr = slow, playErr
}

// Crashed reports whether the player's process ended by itself (Crash,
// ExitAtEnd), not killed by the host.
func (p *Player) Crashed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exited
}

// Killed reports whether the player was killed (or closed).
func (p *Player) Killed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed
}

// Released is how many times the player was killed or closed.
func (p *Player) Released() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.released
}

// Calls lists the calls made to the player ("newgame", "play 3", "undo",
// "genmove") and whether any two overlapped.
func (p *Player) Calls() (calls []string, overlapped bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.calls...), p.overlap
}

// Moves returns the moves on the player's board.
func (p *Player) Moves() []engine.Move {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pos == nil {
		return nil
	}
	return p.pos.Moves(nil)
}

// Hash is the Zobrist hash of the player's board.
func (p *Player) Hash() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos.Hash()
}

// Setups lists the games the player was given (NewGame), refused ones too.
func (p *Player) Setups() []referee.Setup {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]referee.Setup(nil), p.setups...)
}

// SetOptions keeps the options a loader started the player with (Options).
func (p *Player) SetOptions(opts map[string]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opts = opts
}

// Options are the options given to SetOptions.
func (p *Player) Options() map[string]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opts
}
