package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Adapt returns the wire-level botapi.Bot that Serve serves for b: it keeps
// the game's position, checks what the host sends and answers with gRPC
// status errors (InvalidArgument for bad rules, options, moves and colours;
// FailedPrecondition for a call out of order; Unimplemented for Solve on a
// bot that is not a Solver). log may be nil. Adapt is for tests and for
// bots that wrap the wire level themselves; most bots call Serve.
func Adapt(b Bot, log hclog.Logger) botapi.Bot {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	info := b.Info()
	return &adapter{bot: b, log: log, info: info, opts: OptionSet(info.Options)}
}

type adapter struct {
	bot  Bot
	log  hclog.Logger
	info botapi.Info
	opts OptionSet

	mu   sync.Mutex // held by every game call, GenMove included
	game *game

	solveMu sync.Mutex // held by SolveOne
	solving scratch
}

type game struct {
	rules  engine.Rules
	pos    *engine.Position
	player Player
}

func invalid(format string, args ...any) error {
	return status.Errorf(codes.InvalidArgument, format, args...)
}

func (a *adapter) Info(context.Context) (botapi.Info, error) { return a.info, nil }

// describePlays says what the bot plays, e.g. "connectx and mnk up to 15
// rows and 15 columns".
func describePlays(info botapi.Info) string {
	what := strings.Join(info.Kinds, " and ")
	if what == "" {
		what = "nothing"
	}
	if info.MaxRows > 0 || info.MaxCols > 0 {
		what += fmt.Sprintf(" up to %s rows and %s columns", limit(info.MaxRows), limit(info.MaxCols))
	}
	return what
}

func limit(n int) string {
	if n == 0 {
		return "any number of"
	}
	return fmt.Sprint(n)
}

func (a *adapter) NewGame(ctx context.Context, g botapi.Game) error {
	rules, err := engine.ParseRules(g.Rules)
	if err != nil {
		return invalid("%v", err)
	}
	if !a.info.Declares(rules) {
		return invalid("bot %s does not play %s: it plays %s", a.info.Name, rules, describePlays(a.info))
	}
	color := engine.Empty
	if g.Color != "" && g.Color != "." {
		if color, err = engine.ParseColor(g.Color); err != nil {
			return invalid("%v", err)
		}
	}
	values, err := a.opts.Parse(g.Options)
	if err != nil {
		return invalid("%v", err)
	}
	pos := engine.NewPosition(rules)
	moves := make([]engine.Move, 0, len(g.Moves))
	for i, s := range g.Moves {
		m, err := rules.ParseMove(s)
		if err == nil {
			err = pos.Apply(m)
		}
		if err != nil {
			return invalid("move %d (%s): %v", i+1, s, err)
		}
		moves = append(moves, m)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.game = nil
	player, err := a.bot.NewGame(ctx, Game{
		Rules: rules, Color: color, Options: g.Options, Values: values, Time: g.Time, Moves: moves,
	})
	if err != nil {
		if _, ok := status.FromError(err); ok {
			return err
		}
		return invalid("%v", err)
	}
	if player == nil {
		return status.Errorf(codes.Internal, "bot %s returned no player", a.info.Name)
	}
	a.game = &game{rules: rules, pos: pos, player: player}
	return nil
}

// current returns the game; the caller holds a.mu.
func (a *adapter) current() (*game, error) {
	if a.game == nil {
		return nil, status.Error(codes.FailedPrecondition, "no game: call NewGame first")
	}
	return a.game, nil
}

func (a *adapter) Play(_ context.Context, move string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	g, err := a.current()
	if err != nil {
		return err
	}
	m, err := g.rules.ParseMove(move)
	if err == nil {
		err = g.pos.Apply(m)
	}
	if err != nil {
		return invalid("illegal move %s: %v", move, err)
	}
	if o, ok := g.player.(Observer); ok {
		o.Played(g.pos, m)
	}
	return nil
}

func (a *adapter) Undo(context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	g, err := a.current()
	if err != nil {
		return err
	}
	m, ok := g.pos.Undo()
	if !ok {
		return status.Error(codes.FailedPrecondition, "cannot undo: no move to undo")
	}
	if o, ok := g.player.(Observer); ok {
		o.Undone(g.pos, m)
	}
	return nil
}

func (a *adapter) GenMove(ctx context.Context, req botapi.GenMoveRequest, progress func(botapi.Progress)) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g, err := a.current()
	if err != nil {
		return "", err
	}
	pos := g.pos
	if r := pos.Result(); r != engine.Open {
		return "", status.Errorf(codes.FailedPrecondition, "the game is over (%s)", r.Describe())
	}
	if !req.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, req.Deadline)
		defer cancel()
	}
	start := time.Now()
	report := func(botapi.Progress) {}
	if progress != nil {
		report = func(p botapi.Progress) {
			if p.Time == 0 {
				p.Time = time.Since(start)
			}
			progress(p)
		}
	}
	ctx = withMoveClock(ctx, MoveClock{Budget: req.Budget, Left: [2]time.Duration{req.XLeft, req.OLeft}})
	hash, history := pos.Hash(), pos.Moves(nil)
	m, err := g.player.GenMove(ctx, pos, report)
	if pos.Hash() != hash || pos.Ply() != len(history) {
		a.log.Error("the player changed the position in GenMove and did not restore it; rebuilding it")
		g.pos = engine.NewPosition(g.rules)
		_ = g.pos.PlayMoveList(history)
		pos = g.pos
	}
	switch {
	case errors.Is(err, ErrResign):
		a.log.Debug("genmove", "move", botapi.Resign, "took", time.Since(start))
		return botapi.Resign, nil
	case err != nil && ctx.Err() != nil:
		return "", status.FromContextError(ctx.Err()).Err()
	case err != nil:
		if _, ok := status.FromError(err); ok {
			return "", err
		}
		return "", status.Errorf(codes.Internal, "genmove: %v", err)
	}
	text := g.rules.FormatMove(m)
	if err := pos.Check(m); err != nil {
		a.log.Warn("the player answered an illegal move; sending it anyway", "move", text, "error", err)
	} else if req.Play {
		pos.Play(m)
		if o, ok := g.player.(Observer); ok {
			o.Played(pos, m)
		}
	}
	a.log.Debug("genmove", "move", text, "took", time.Since(start))
	return text, nil
}

// SolveOne answers one request on the calling goroutine (botapi's Session
// handler solves batches so).
func (a *adapter) SolveOne(ctx context.Context, req botapi.SolveRequest) (botapi.SolveReply, error) {
	solver, ok := a.bot.(Solver)
	if !ok {
		return botapi.SolveReply{}, status.Errorf(codes.Unimplemented, "bot %s does not solve positions", a.info.Name)
	}
	a.solveMu.Lock()
	defer a.solveMu.Unlock()
	reply := solveOne(ctx, solver, a.opts, &a.solving, req)
	reply.ID = req.ID
	return reply, nil
}

func (a *adapter) Solve(ctx context.Context) (botapi.SolveStream, error) {
	solver, ok := a.bot.(Solver)
	if !ok {
		return nil, status.Errorf(codes.Unimplemented, "bot %s does not solve positions", a.info.Name)
	}
	s := &solveStream{ctx: ctx, opts: OptionSet(a.info.Options), in: make(chan botapi.SolveRequest), out: make(chan botapi.SolveReply)}
	go s.run(solver)
	return s, nil
}

// solveStream answers requests one at a time in a goroutine, until ctx ends.
// Like a gRPC stream, Send and CloseSend must not be called concurrently.
type solveStream struct {
	ctx     context.Context
	opts    OptionSet // the bot's options, to check each request's
	in      chan botapi.SolveRequest
	out     chan botapi.SolveReply // closed once every request is answered
	closed  bool                   // CloseSend was called
	scratch scratch                // the run goroutine's
}

func (s *solveStream) Send(r botapi.SolveRequest) error {
	if s.closed {
		return status.Error(codes.FailedPrecondition, "solve: send after CloseSend")
	}
	select {
	case s.in <- r:
		return nil
	case <-s.ctx.Done():
		return status.FromContextError(s.ctx.Err()).Err()
	}
}

func (s *solveStream) Recv() (botapi.SolveReply, error) {
	select {
	case r, ok := <-s.out:
		if !ok {
			return botapi.SolveReply{}, io.EOF
		}
		return r, nil
	case <-s.ctx.Done():
		return botapi.SolveReply{}, status.FromContextError(s.ctx.Err()).Err()
	}
}

func (s *solveStream) CloseSend() error {
	if !s.closed {
		s.closed = true
		close(s.in)
	}
	return nil
}

func (s *solveStream) run(solver Solver) {
	defer close(s.out)
	for {
		var req botapi.SolveRequest
		select {
		case r, ok := <-s.in:
			if !ok {
				return
			}
			req = r
		case <-s.ctx.Done():
			return
		}
		reply := solveOne(s.ctx, solver, s.opts, &s.scratch, req)
		reply.ID = req.ID
		select {
		case s.out <- reply:
		case <-s.ctx.Done():
			return
		}
	}
}

// scratch is what solveOne reuses from one request to the next: the
// rules of the last one and a position under them (the positions of a
// solve run share their rules; a new board per position cost as much as
// the boundary's whole budget).
type scratch struct {
	text  string
	rules engine.Rules
	pos   *engine.Position
}

// position returns the empty board of the rules text.
func (sc *scratch) position(text string) (engine.Rules, *engine.Position, error) {
	if sc.pos == nil || text != sc.text {
		rules, err := engine.ParseRules(text)
		if err != nil {
			return engine.Rules{}, nil, err
		}
		sc.text, sc.rules, sc.pos = text, rules, engine.NewPosition(rules)
		return rules, sc.pos, nil
	}
	for {
		if _, ok := sc.pos.Undo(); !ok {
			return sc.rules, sc.pos, nil
		}
	}
}

// solveOne answers one request; errors go into the reply. The position
// comes from sc.
func solveOne(ctx context.Context, solver Solver, opts OptionSet, sc *scratch, req botapi.SolveRequest) botapi.SolveReply {
	if len(req.Options) > 0 {
		if _, err := opts.Parse(req.Options); err != nil {
			return botapi.SolveReply{Error: err.Error()}
		}
	}
	rules, pos, err := sc.position(req.Rules)
	if err != nil {
		return botapi.SolveReply{Error: err.Error()}
	}
	for i, s := range req.Moves {
		m, err := rules.ParseMove(s)
		if err == nil {
			err = pos.Apply(m)
		}
		if err != nil {
			return botapi.SolveReply{Error: fmt.Sprintf("move %d (%s): %v", i+1, s, err)}
		}
	}
	if len(req.Moves) == 0 && req.MoveList != "" {
		moves, err := rules.ParseMoveList(req.MoveList)
		if err == nil {
			err = pos.PlayMoveList(moves)
		}
		if err != nil {
			return botapi.SolveReply{Error: fmt.Sprintf("move list %s: %v", req.MoveList, err)}
		}
	}
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	start := time.Now()
	reply, err := solver.Solve(ctx, pos, req)
	took := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return botapi.SolveReply{Known: false, Nodes: reply.Nodes, Time: took}
		}
		return botapi.SolveReply{Error: err.Error(), Time: took}
	}
	reply.Time = took
	return reply
}
