package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// DefaultGrace is how long after a move's deadline the referee still accepts
// the answer: room for process scheduling and the plugin round trip.
const DefaultGrace = 100 * time.Millisecond

// DefaultMoveTime is the per-move limit when no time control is set.
const DefaultMoveTime = time.Second

// DefaultCallTimeout bounds every call to a player other than a move
// request (new game, play, undo): a frozen player cannot hang the referee.
const DefaultCallTimeout = 5 * time.Second

// Config sets up a Game.
type Config struct {
	Grace  time.Duration // default DefaultGrace
	Clock  Clock         // MoveTime defaults to DefaultMoveTime
	Logger hclog.Logger  // default: a null logger
	Now    func() time.Time
	// CallTimeout bounds NewGame, Play and Undo calls (default DefaultCallTimeout).
	CallTimeout time.Duration
}

// Game is the authoritative state of one game: the position, the record,
// the two sides' players and clocks.
type Game struct {
	cfg     Config
	pos     *engine.Position
	rec     *record.Record
	players [2]Player
	names   [2]string
	broken  [2]error // a player whose move notification failed
	clocks  [2]sideClock
}

// ErrIllegalMove is wrapped by errors for moves the referee refuses.
var ErrIllegalMove = errors.New("illegal move")

// New starts an empty game under rules.
func New(rules engine.Rules, cfg Config) *Game {
	if cfg.Grace == 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Clock.MoveTime == 0 {
		cfg.Clock.MoveTime = DefaultMoveTime
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	g := &Game{cfg: cfg, names: [2]string{"controller", "controller"}}
	g.reset(rules)
	return g
}

func (g *Game) reset(rules engine.Rules) {
	g.pos = engine.NewPosition(rules)
	g.rec = record.New(rules, record.Players{X: g.names[0], O: g.names[1]}, g.cfg.Now())
	g.broken = [2]error{}
	for c := range g.clocks {
		g.clocks[c].reset(g.cfg.Clock)
	}
}

// Position returns the game's position; callers must not change it.
func (g *Game) Position() *engine.Position { return g.pos }

// Rules returns the rules of the game.
func (g *Game) Rules() engine.Rules { return g.pos.Rules() }

// Record returns the game record so far.
func (g *Game) Record() *record.Record { return g.rec }

// Over reports whether the game has ended (by the rules or by a forfeit).
func (g *Game) Over() bool { return g.rec.Result != "" }

// Clock returns the time control.
func (g *Game) Clock() Clock { return g.cfg.Clock }

// Grace returns the grace after a deadline.
func (g *Game) Grace() time.Duration { return g.cfg.Grace }

// SetGrace changes the grace after a deadline.
func (g *Game) SetGrace(d time.Duration) { g.cfg.Grace = d }

// Player returns the player of side c, or nil.
func (g *Game) Player(c engine.Color) Player { return g.players[c] }

// SetName names side c in the record when no player is attached.
func (g *Game) SetName(c engine.Color, name string) {
	g.names[c] = name
	g.syncNames()
}

func (g *Game) syncNames() {
	names := g.names
	for c, p := range g.players {
		if p != nil {
			names[c] = p.Name()
		}
	}
	g.rec.Players = record.Players{X: names[0], O: names[1]}
}

// Attach makes p the player of side c (nil detaches) and tells it the game
// so far. The previous player of c is not killed: that is the caller's job.
func (g *Game) Attach(ctx context.Context, c engine.Color, p Player) error {
	g.players[c] = nil
	g.broken[c] = nil
	if p != nil {
		if err := g.bounded(ctx, func(ctx context.Context) error { return p.NewGame(ctx, g.setup(c)) }); err != nil {
			return fmt.Errorf("%s refused the game: %w", p.Name(), err)
		}
	}
	g.players[c] = p
	g.syncNames()
	return nil
}

func (g *Game) setup(c engine.Color) Setup {
	return Setup{Rules: g.pos.Rules(), Color: c, Moves: g.pos.Moves(nil), Clock: g.cfg.Clock}
}

// Restart clears the board for a new game under rules, keeping players and
// the time control. A player that refuses the new game is detached and
// returned in the error (joined errors, one per refusing side).
func (g *Game) Restart(ctx context.Context, rules engine.Rules) error {
	g.reset(rules)
	var errs []error
	for c, p := range g.players {
		if p == nil {
			continue
		}
		if err := g.bounded(ctx, func(ctx context.Context) error { return p.NewGame(ctx, g.setup(engine.Color(c))) }); err != nil {
			g.players[c] = nil
			errs = append(errs, fmt.Errorf("%s (%s) refused %s: %w", engine.Color(c), p.Name(), rules, err))
		}
	}
	g.syncNames()
	return errors.Join(errs...)
}

// SetClock changes the time control and resets both clocks.
func (g *Game) SetClock(c Clock) {
	if c.MoveTime == 0 {
		c.MoveTime = g.cfg.Clock.MoveTime
	}
	g.cfg.Clock = c
	for i := range g.clocks {
		g.clocks[i].reset(c)
	}
}

// SetTimeLeft applies GTP's time_left for side c.
func (g *Game) SetTimeLeft(c engine.Color, left time.Duration, stones int) {
	g.clocks[c].set(left, stones)
}

// Budget is the time side c may use for its next move.
func (g *Game) Budget(c engine.Color) time.Duration { return g.clocks[c].budget(g.cfg.Clock) }

// Play plays move m for side c, sent by the controller. It is refused
// (ErrIllegalMove, the position unchanged) if the game is over, c is not to
// move, or m is not legal.
func (g *Game) Play(ctx context.Context, c engine.Color, m engine.Move) error {
	if err := g.check(c, m); err != nil {
		return err
	}
	g.apply(ctx, m, 0, nil)
	return nil
}

func (g *Game) check(c engine.Color, m engine.Move) error {
	if g.Over() {
		return fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, g.rec.Summary())
	}
	if c != g.pos.ToMove() {
		return fmt.Errorf("%w: %s is not to move (%s is)", ErrIllegalMove, c, g.pos.ToMove())
	}
	if err := g.pos.Check(m); err != nil {
		return fmt.Errorf("%w: %w", ErrIllegalMove, err)
	}
	return nil
}

// apply plays a checked move, records it, charges the clock, tells the
// players (but from, which played it itself) and closes the record if the
// game ended.
func (g *Game) apply(ctx context.Context, m engine.Move, took time.Duration, from Player) {
	c := g.pos.ToMove()
	g.pos.Play(m)
	g.rec.Add(g.pos.Rules(), m, c, took)
	g.clocks[c].spend(g.cfg.Clock, took)
	g.notify(ctx, func(ctx context.Context, p Player) error {
		if p == from {
			return nil
		}
		return p.Play(ctx, m)
	})
	switch res := g.pos.Result(); res {
	case engine.XWins, engine.OWins:
		g.rec.Finish(res, record.ReasonWin, "", "", g.cfg.Now())
	case engine.Draw:
		g.rec.Finish(res, record.ReasonDraw, "", "", g.cfg.Now())
	}
}

// bounded runs a call to a player with the call timeout.
func (g *Game) bounded(ctx context.Context, call func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.CallTimeout)
	defer cancel()
	return call(ctx)
}

// notify sends an event to every attached player, each call bounded; a
// player that fails it is killed, marked broken and forfeits when next asked
// to move.
func (g *Game) notify(ctx context.Context, send func(context.Context, Player) error) {
	for c, p := range g.players {
		if p == nil || g.broken[c] != nil {
			continue
		}
		if err := g.bounded(ctx, func(ctx context.Context) error { return send(ctx, p) }); err != nil {
			g.broken[c] = err
			p.Kill()
			g.cfg.Logger.Warn("player failed to follow the game", "side", engine.Color(c).String(), "player", p.Name(), "error", err)
		}
	}
}

// Undo takes back the last move, reopening a finished game.
func (g *Game) Undo(ctx context.Context) error {
	if _, ok := g.pos.Undo(); !ok {
		return errors.New("cannot undo: no move has been played")
	}
	g.rec.Undo(g.pos.Rules())
	g.rec.Reopen()
	g.notify(ctx, func(ctx context.Context, p Player) error { return p.Undo(ctx) })
	return nil
}

// Resign ends the game with side c resigning.
func (g *Game) Resign(c engine.Color) error {
	if g.Over() {
		return fmt.Errorf("the game is over (%s)", g.rec.Summary())
	}
	g.rec.Finish(engine.WinFor(c.Other()), record.ReasonResignation, "", fmt.Sprintf("%s (%s) resigned", c, g.names[c]), g.cfg.Now())
	return nil
}

// Adjudicate ends an open game as a draw by the referee's decision.
func (g *Game) Adjudicate(why string) {
	if !g.Over() {
		g.rec.Finish(engine.Draw, record.ReasonAdjudicated, "", why, g.cfg.Now())
	}
}

// Outcome is what came of asking a player for a move.
type Outcome struct {
	Move    engine.Move    // the move played, if Played
	Played  bool           // false when the player forfeited or resigned
	Forfeit record.Forfeit // why it forfeited, if it did
	Detail  string         // the forfeit or resignation in words
	Took    time.Duration  // how long the player took
}

// GenMove asks side c's player (p, or the attached player when p is nil)
// for a move and plays it, or ends the game by forfeit or resignation. An
// error is returned only when the request itself is wrong (game over, side
// not to move, no player) or ctx was cancelled; a misbehaving player is an
// Outcome, not an error.
func (g *Game) GenMove(ctx context.Context, c engine.Color) (Outcome, error) {
	p := g.players[c]
	if p == nil {
		return Outcome{}, fmt.Errorf("no player for %s", c)
	}
	if g.Over() {
		return Outcome{}, fmt.Errorf("%w: the game is over (%s)", ErrIllegalMove, g.rec.Summary())
	}
	if c != g.pos.ToMove() {
		return Outcome{}, fmt.Errorf("%w: %s is not to move (%s is)", ErrIllegalMove, c, g.pos.ToMove())
	}
	who := fmt.Sprintf("%s (%s)", c, p.Name())
	if err := g.broken[c]; err != nil {
		return g.forfeit(c, p, record.ForfeitCrash, fmt.Sprintf("%s %v", who, err), 0), nil
	}
	budget := g.Budget(c)
	start := g.cfg.Now()
	deadline := start.Add(budget)
	req := MoveRequest{Color: c, Deadline: deadline, MoveTime: budget,
		Left: [2]time.Duration{g.Budget(engine.X), g.Budget(engine.O)}}
	grace := g.cfg.Grace
	if t, ok := p.(Tolerant); ok {
		grace = max(grace, t.Tolerance())
	}
	callCtx, cancel := context.WithDeadline(ctx, deadline.Add(grace))
	text, err := p.GenMove(callCtx, req)
	cancel()
	took := g.cfg.Now().Sub(start)
	limit := fmt.Sprintf("%d ms", budget.Milliseconds())
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{}, fmt.Errorf("genmove %s: %w", c, ctx.Err())
		}
		if exited, how := p.Exit(); exited {
			return g.forfeit(c, p, record.ForfeitCrash, fmt.Sprintf("%s crashed: %s", who, how), took), nil
		}
		if errors.Is(err, ErrDisconnected) {
			return g.forfeit(c, p, record.ForfeitCrash, fmt.Sprintf("%s %v", who, err), took), nil
		}
		if errors.Is(err, context.DeadlineExceeded) || took > budget+grace {
			return g.forfeit(c, p, record.ForfeitTimeout,
				fmt.Sprintf("%s timed out after %s (no answer; it stalled)", who, limit), took), nil
		}
		return g.forfeit(c, p, record.ForfeitProtocolError, fmt.Sprintf("%s answered an error: %v", who, err), took), nil
	}
	if took > budget+grace {
		return g.forfeit(c, p, record.ForfeitTimeout,
			fmt.Sprintf("%s timed out after %s (answered after %d ms)", who, limit, took.Milliseconds()), took), nil
	}
	text = strings.TrimSpace(text)
	if strings.EqualFold(text, "resign") {
		g.rec.Finish(engine.WinFor(c.Other()), record.ReasonResignation, "", who+" resigned", g.cfg.Now())
		return Outcome{Detail: who + " resigned", Took: took}, nil
	}
	m, err := g.pos.Rules().ParseMove(text)
	if err != nil {
		return g.forfeit(c, p, record.ForfeitIllegalMove, fmt.Sprintf("%s answered an unparsable move: %v", who, err), took), nil
	}
	if err := g.pos.Check(m); err != nil {
		return g.forfeit(c, p, record.ForfeitIllegalMove, fmt.Sprintf("%s answered an illegal move %s: %v", who, text, err), took), nil
	}
	g.apply(ctx, m, took, p)
	return Outcome{Move: m, Played: true, Took: took}, nil
}

// forfeit ends the game against side c. A player that stalled, crashed or
// broke the protocol is killed: it cannot be trusted with another request.
func (g *Game) forfeit(c engine.Color, p Player, why record.Forfeit, detail string, took time.Duration) Outcome {
	g.cfg.Logger.Warn("forfeit", "side", c.String(), "player", p.Name(), "reason", string(why), "detail", detail)
	if why != record.ForfeitIllegalMove {
		p.Kill()
	}
	g.rec.Finish(engine.WinFor(c.Other()), record.ReasonForfeit, why, detail, g.cfg.Now())
	return Outcome{Forfeit: why, Detail: detail, Took: took}
}
