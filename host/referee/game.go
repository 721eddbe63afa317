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
	"github.com/kinrow/kinrow/protocol/botapi"
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
//
// A Game belongs to one goroutine at a time (each front end drives its own
// from one). Telling a player about a move goes through that side's mailbox,
// delivered on a goroutine of its own, so the side that moved gets its
// answer at once and only a slow side waits on itself: the referee waits for
// a side's pending notifications when that side is next asked to move,
// within that move's own deadline.
type Game struct {
	cfg     Config
	pos     *engine.Position
	rec     *record.Record
	players [2]Player
	boxes   [2]*mailbox // the players' notifications, nil with no player
	names   [2]string
	clocks  [2]sideClock
	cpu     [2]time.Duration // each side's CPU time at the end of its last move (Facts.CPU)
	tol     [2]time.Duration // each side's tolerance past a deadline (Facts.Tolerance)
}

// ErrIllegalMove is wrapped by errors for moves the referee refuses.
var ErrIllegalMove = errors.New("illegal move")

// ErrCannotUndo is wrapped by errors for an undo the referee refuses.
var ErrCannotUndo = errors.New("cannot undo")

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
	for c := range g.clocks {
		g.clocks[c].reset(g.cfg.Clock)
	}
}

// Position returns the game's position; callers must not change it.
func (g *Game) Position() *engine.Position { return g.pos }

// Rules returns the rules of the game.
func (g *Game) Rules() engine.Rules { return g.pos.Rules() }

// Record returns the game record so far. Once the game is over it first
// settles the players' pending notifications (Settle), so a player handed
// on to another game is not still being told about this one.
func (g *Game) Record() *record.Record {
	if g.Over() {
		g.Settle(context.Background())
	}
	return g.rec
}

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

// syncNames names the players in the record of an open game. A finished
// game's record keeps the names of the players that played it, even when
// they are detached afterwards.
func (g *Game) syncNames() {
	if g.Over() {
		return
	}
	names := g.names
	for c, p := range g.players {
		if p != nil {
			names[c] = p.Name()
		}
	}
	g.rec.Players = record.Players{X: names[0], O: names[1]}
}

// detach takes side c's player out of the game: its pending notifications
// are dropped (a later NewGame gives it the whole game) and the one being
// delivered is cancelled. The player is not killed: that is the caller's
// job.
func (g *Game) detach(c engine.Color) {
	if b := g.boxes[c]; b != nil {
		b.stop(g.cfg.CallTimeout)
	}
	g.players[c], g.boxes[c] = nil, nil
}

// Attach makes p the player of side c (nil detaches) and tells it the game
// so far. The previous player of c is not killed: that is the caller's job;
// its pending notifications are dropped first, so it can be closed (or
// attached again) at once. A player plays one side at a time: detach it
// from the other side first.
// A cancelled ctx is returned as an error and leaves c without a player.
func (g *Game) Attach(ctx context.Context, c engine.Color, p Player) error {
	g.detach(c)
	if p != nil {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("attach %s to %s: %w", p.Name(), c, err)
		}
		if err := g.bounded(ctx, func(ctx context.Context) error { return p.NewGame(ctx, g.setup(c)) }); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("attach %s to %s: %w", p.Name(), c, ctx.Err())
			}
			return fmt.Errorf("%s refused the game: %w", p.Name(), quoted(err))
		}
		g.players[c], g.boxes[c] = p, newMailbox(p)
		g.startCPU(c)
	}
	g.syncNames()
	return nil
}

// startCPU takes side c's CPU time at the start of its game: a player's
// processes may have played other games (kinrow match keeps bots across a
// worker's games) and their CPU time is not this game's. It keeps the
// player's tolerance too (fixed for its life).
func (g *Game) startCPU(c engine.Color) {
	f := g.players[c].Facts()
	g.cpu[c], g.tol[c] = 0, f.Tolerance
	if f.CPUKnown {
		g.cpu[c] = f.CPU
	}
}

func (g *Game) setup(c engine.Color) Setup {
	return Setup{Rules: g.pos.Rules(), Color: c, Moves: g.pos.Moves(nil), Clock: g.cfg.Clock}
}

// RefusalError is one side's player refusing a new game (Restart).
type RefusalError struct {
	Color  engine.Color
	Player Player
	Rules  engine.Rules
	Err    error
}

func (e *RefusalError) Error() string {
	return fmt.Sprintf("%s (%s) refused %s: %s", e.Color, e.Player.Name(), e.Rules, quoteErr(e.Err))
}

func (e *RefusalError) Unwrap() error { return e.Err }

// Restart clears the board for a new game under rules, keeping players and
// the time control. A player that refuses the new game is detached (not
// killed) and returned in the error: joined *RefusalErrors, one per
// refusing side. A cancelled ctx is an error of its own, never a refusal;
// the players it reached no NewGame are detached.
func (g *Game) Restart(ctx context.Context, rules engine.Rules) error {
	// A player still taking the old game's notifications gets its own move
	// time to finish (a frozen one is killed then, and refuses the game at
	// once); the notifications are moot after that.
	g.Settle(ctx)
	for c, b := range g.boxes {
		if b != nil {
			b.stop(g.cfg.CallTimeout)
			g.boxes[c] = newMailbox(g.players[c])
		}
	}
	g.reset(rules)
	var errs []error
	for c, p := range g.players {
		if p == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			g.detach(engine.Color(c))
			errs = append(errs, fmt.Errorf("restart: %w", err))
			continue
		}
		if err := g.bounded(ctx, func(ctx context.Context) error { return p.NewGame(ctx, g.setup(engine.Color(c))) }); err != nil {
			g.detach(engine.Color(c))
			if ctx.Err() != nil {
				errs = append(errs, fmt.Errorf("restart: %w", ctx.Err()))
				continue
			}
			errs = append(errs, &RefusalError{Color: engine.Color(c), Player: p, Rules: rules, Err: err})
			continue
		}
		g.startCPU(engine.Color(c))
	}
	g.syncNames()
	return errors.Join(errs...)
}

// SetClock changes the time control and resets both clocks; a MoveTime of
// 0 keeps the current one. A clock Validate refuses is refused, the time
// control unchanged.
func (g *Game) SetClock(c Clock) error {
	if c.MoveTime == 0 {
		c.MoveTime = g.cfg.Clock.MoveTime
	}
	if err := c.Validate(); err != nil {
		return err
	}
	g.cfg.Clock = c
	for i := range g.clocks {
		g.clocks[i].reset(c)
	}
	return nil
}

// SetTimeLeft applies GTP's time_left for side c: the time left in the
// period (0 to MaxTime) and the stones left in it (0 while in main time, up
// to MaxStones). Anything else is refused, the clock unchanged.
func (g *Game) SetTimeLeft(c engine.Color, left time.Duration, stones int) error {
	if err := errors.Join(checkTime("time left", left), checkStones("stones", stones)); err != nil {
		return err
	}
	g.clocks[c].set(left, stones)
	return nil
}

// Budget is the time side c may use for its next move.
func (g *Game) Budget(c engine.Color) time.Duration { return g.clocks[c].budget(g.cfg.Clock) }

// Play plays move m for side c, sent by the controller. It is refused
// (ErrIllegalMove, the position unchanged) if the game is over, c is not to
// move, or m is not legal. The players are told in the background.
func (g *Game) Play(ctx context.Context, c engine.Color, m engine.Move) error {
	if err := g.check(c, m); err != nil {
		return err
	}
	g.apply(m, 0, nil, nil)
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

// apply plays a checked move, records it, charges the clock, posts it to
// the players (but from, which played it itself, with its search report)
// and closes the record if the game ended.
func (g *Game) apply(m engine.Move, took time.Duration, from Player, search *record.Search) {
	c := g.pos.ToMove()
	what := fmt.Sprintf("%s's move %s", c, g.pos.Rules().FormatMove(m))
	g.pos.Play(m)
	g.rec.Add(g.pos.Rules(), m, c, took)
	g.rec.Moves[len(g.rec.Moves)-1].Search = search
	g.clocks[c].spend(g.cfg.Clock, took)
	g.post(note{what: what, call: func(ctx context.Context, p Player) error { return p.Play(ctx, m) }}, from)
	switch res := g.pos.Result(); res {
	case engine.XWins, engine.OWins:
		g.rec.Finish(res, record.ReasonWin, "", "", g.cfg.Now())
	case engine.Draw:
		detail := ""
		if g.pos.Stuck() {
			detail = fmt.Sprintf("%s has no legal move: every empty cell is forbidden", g.pos.ToMove())
		}
		g.rec.Finish(res, record.ReasonDraw, "", detail, g.cfg.Now())
	}
}

// post queues n for every attached player but skip.
func (g *Game) post(n note, skip Player) {
	for c, b := range g.boxes {
		if b != nil && g.players[c] != skip {
			b.post(n)
		}
	}
}

// bounded runs a call to a player with the call timeout.
func (g *Game) bounded(ctx context.Context, call func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.CallTimeout)
	defer cancel()
	return call(ctx)
}

// Settle waits for the players' pending notifications, each side within
// its next move's budget (at most the call timeout) plus the grace. A side
// that does not take them in time is killed; in an open game it forfeits
// by timeout when next asked to move. A failed notification is kept for
// that side's next move too. Only a cancelled ctx stops it early.
func (g *Game) Settle(ctx context.Context) {
	for c, b := range g.boxes {
		if b == nil || !b.busy() {
			continue
		}
		limit := min(g.Budget(engine.Color(c)), g.cfg.CallTimeout) + g.cfg.Grace
		d, err := b.wait(ctx, limit)
		if err != nil {
			return
		}
		if d.late != "" {
			p := g.players[c]
			g.cfg.Logger.Warn("player did not take a notification in time; killing it",
				"side", engine.Color(c).String(), "player", p.Name(), "notification", d.late, "limit", limit)
			p.Kill()
		}
	}
}

// Undo takes back the last move. A game decided by its last move (a win, or
// a draw on a full board) is reopened: that move is taken back like any
// other. A game ended by a forfeit, a resignation or the referee's decision
// did not end on a move, and is refused (ErrCannotUndo): taking back a
// stone would erase a verdict and undo a move that did not end the game.
// The players are told in the background.
func (g *Game) Undo(ctx context.Context) error {
	if g.Over() && g.rec.Reason != record.ReasonWin && g.rec.Reason != record.ReasonDraw {
		return fmt.Errorf("%w: the game ended by %s, not by a move (%s); clear_board starts a new game",
			ErrCannotUndo, g.rec.Reason, g.rec.Summary())
	}
	last := g.pos.LastMove()
	if last == engine.NoMove {
		return fmt.Errorf("%w: no move has been played", ErrCannotUndo)
	}
	what := fmt.Sprintf("the undo of %s's move %s", g.pos.ToMove().Other(), g.pos.Rules().FormatMove(last))
	g.pos.Undo()
	g.rec.Undo(g.pos.Rules())
	g.rec.Reopen()
	g.syncNames()
	g.post(note{what: what, call: func(ctx context.Context, p Player) error { return p.Undo(ctx) }}, nil)
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
	// Killed is true when the referee killed the player for its forfeit
	// (it stalled, crashed or broke the protocol); a player that only
	// answered an illegal or forbidden move is left running.
	Killed bool
}

// GenMove asks side c's player (the attached player) for a move and plays
// it, or ends the game by forfeit or resignation. It first waits for the
// side's pending notifications, within the move's deadline: that wait is
// the side's own time. It returns as soon as the move is played: the
// opponent is told in the background.
//
// An error is returned only when the request itself is wrong (game over,
// side not to move, no player) or ctx was cancelled: a cancelled ctx is
// checked before any verdict, and is never one. A misbehaving player is an
// Outcome, not an error.
func (g *Game) GenMove(ctx context.Context, c engine.Color) (Outcome, error) {
	return g.GenMoveProgress(ctx, c, nil)
}

// GenMoveProgress is GenMove, passing the search reports the player sends
// while thinking to progress (when not nil), on this goroutine, before it
// returns (host/pbrain's MESSAGE lines).
func (g *Game) GenMoveProgress(ctx context.Context, c engine.Color, progress func(botapi.Progress)) (Outcome, error) {
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
	cancelled := func() (Outcome, error) { return Outcome{}, fmt.Errorf("genmove %s: %w", c, ctx.Err()) }
	if ctx.Err() != nil {
		return cancelled()
	}
	who := fmt.Sprintf("%s (%s)", c, p.Name())
	budget := g.Budget(c)
	limit := fmt.Sprintf("%d ms", budget.Milliseconds())
	start := g.cfg.Now()
	deadline := start.Add(budget)
	d, err := g.boxes[c].wait(ctx, deadline.Add(g.cfg.Grace).Sub(start))
	if err != nil {
		return cancelled()
	}
	if d.late != "" || d.err != nil {
		if ctx.Err() != nil {
			return cancelled()
		}
		return g.undelivered(c, p, who, limit, d, g.cfg.Now().Sub(start)), nil
	}
	req := NewMoveRequest(c, deadline, budget, [2]time.Duration{g.Budget(engine.X), g.Budget(engine.O)})
	req.Progress = progress
	grace := max(g.cfg.Grace, g.tol[c])
	callCtx, cancel := context.WithDeadline(ctx, deadline.Add(grace))
	ans, err := p.GenMove(callCtx, req)
	cancel()
	text := ans.Move
	took := g.cfg.Now().Sub(start)
	if ctx.Err() != nil {
		return cancelled()
	}
	if err != nil {
		if f := p.Facts(); f.Exited {
			return g.forfeit(c, p, crashReason(f), fmt.Sprintf("%s crashed: %s", who, Quote(f.How)), took), nil
		}
		if errors.Is(err, ErrDisconnected) {
			return g.forfeit(c, p, record.ForfeitCrash, fmt.Sprintf("%s %s", who, quoteErr(err)), took), nil
		}
		if errors.Is(err, context.DeadlineExceeded) || took > budget+grace {
			return g.forfeit(c, p, record.ForfeitTimeout,
				fmt.Sprintf("%s timed out after %s (no answer; it stalled)", who, limit), took), nil
		}
		return g.forfeit(c, p, record.ForfeitProtocolError, fmt.Sprintf("%s answered an error: %s", who, quoteErr(err)), took), nil
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
		return g.forfeit(c, p, record.ForfeitIllegalMove, fmt.Sprintf("%s answered an unparsable move: %s", who, quoteErr(err)), took), nil
	}
	if err := g.pos.Check(m); err != nil {
		var fe *engine.ForbiddenError
		if errors.As(err, &fe) {
			return g.forfeit(c, p, record.ForfeitForbidden, fmt.Sprintf("%s played %s, forbidden by the rules (%s): %s",
				who, Quote(text), g.pos.Rules().Line, fe.Foul), took), nil
		}
		return g.forfeit(c, p, record.ForfeitIllegalMove, fmt.Sprintf("%s answered an illegal move %s: %s", who, Quote(text), quoteErr(err)), took), nil
	}
	g.apply(m, took, p, ans.Search)
	if f := p.Facts(); f.CPUKnown {
		// Since the end of its last move: what it computed while its
		// opponent thought counts here.
		if n := len(g.rec.Moves); n > 0 && f.CPU >= g.cpu[c] {
			g.rec.Moves[n-1].CPUMS = (f.CPU - g.cpu[c]).Milliseconds()
		}
		g.cpu[c] = f.CPU
	}
	return Outcome{Move: m, Played: true, Took: took}, nil
}

// crashReason is the forfeit of a player whose process is gone: memory if
// it was killed over its memory cap, else crash.
func crashReason(f Facts) record.Forfeit {
	if f.OverMemory {
		return record.ForfeitMemory
	}
	return record.ForfeitCrash
}

// undelivered judges a side that did not take a notification: in time
// (timeout), or at all (crash when its process is gone or the connection
// broke, protocol error when it answered an error).
func (g *Game) undelivered(c engine.Color, p Player, who, limit string, d delivery, took time.Duration) Outcome {
	if d.late != "" {
		more := ""
		if d.pending > 0 {
			more = fmt.Sprintf(" (%d more waiting)", d.pending)
		}
		return g.forfeit(c, p, record.ForfeitTimeout,
			fmt.Sprintf("%s timed out after %s: it did not take the notification of %s%s (it stalled)", who, limit, d.late, more), took)
	}
	if f := p.Facts(); f.Exited {
		return g.forfeit(c, p, crashReason(f), fmt.Sprintf("%s crashed when told %s: %s", who, d.failed, Quote(f.How)), took)
	}
	if errors.Is(d.err, ErrDisconnected) {
		return g.forfeit(c, p, record.ForfeitCrash, fmt.Sprintf("%s disconnected when told %s: %s", who, d.failed, quoteErr(d.err)), took)
	}
	if errors.Is(d.err, context.DeadlineExceeded) {
		return g.forfeit(c, p, record.ForfeitTimeout, fmt.Sprintf("%s timed out taking %s: %s", who, d.failed, quoteErr(d.err)), took)
	}
	return g.forfeit(c, p, record.ForfeitProtocolError, fmt.Sprintf("%s failed to take %s: %s", who, d.failed, quoteErr(d.err)), took)
}

// forfeit ends the game against side c. A player that stalled, crashed or
// broke the protocol is killed: it cannot be trusted with another request.
func (g *Game) forfeit(c engine.Color, p Player, why record.Forfeit, detail string, took time.Duration) Outcome {
	g.cfg.Logger.Warn("forfeit", "side", c.String(), "player", p.Name(), "reason", string(why), "detail", detail)
	kill := why != record.ForfeitIllegalMove && why != record.ForfeitForbidden
	if kill {
		p.Kill()
	}
	g.rec.Finish(engine.WinFor(c.Other()), record.ReasonForfeit, why, detail, g.cfg.Now())
	return Outcome{Forfeit: why, Detail: detail, Took: took, Killed: kill}
}
