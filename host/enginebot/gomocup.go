package enginebot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// reply is one line read from a Gomocup engine, or the error reading it.
type reply struct {
	resp gomocup.Response
	err  error
}

// gomocupDriver is the manager side of the Gomocup protocol.
type gomocupDriver struct {
	e       *Engine
	replies chan reply // closed after the read error that ends the stream

	started       bool // START or RECTSTART accepted for width x height
	width, height int
	rules         engine.Rules
	pos           *engine.Position // the game as the host knows it
	known         int              // moves of pos the engine has been told
	fresh         bool             // the engine's board is empty (after START, RESTART)
	turnSent      int64            // the timeout_turn sent last (-1: none)
	timed         bool
	noAbout       bool // the engine did not answer ABOUT in time once: not asked again
	abandoned     bool // the last move request was given up before its answer

	// out counts the bytes read from the engine's stdout (by read's
	// goroutine); sentAt is what it was when the host last sent a command.
	out    atomic.Int64
	sentAt int64
}

// MaxChatter bounds what a Gomocup engine may write that is not an answer
// (MESSAGE, DEBUG, junk lines, each logged) between two commands of the
// host: past it the engine has flooded its standard output and forfeits by
// protocol error, the detail saying so. Real brains write a few KiB of
// MESSAGE lines a move.
const MaxChatter = 1 << 20

// countingReader counts what is read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// flooded is the error for an engine that wrote more than MaxChatter
// since the host's last command, none of it the answer; nil otherwise.
func (d *gomocupDriver) flooded(waiting string) error {
	if n := d.out.Load() - d.sentAt; n > MaxChatter {
		return fmt.Errorf("engine flooded its standard output: %d bytes since the host's last command, none of them %s (at most %s)",
			n, waiting, procrun.FormatSize(MaxChatter))
	}
	return nil
}

func newGomocup(e *Engine) *gomocupDriver {
	d := &gomocupDriver{e: e, replies: make(chan reply, 16), turnSent: -1}
	go d.read()
	return d
}

// read forwards the engine's lines until its output ends.
func (d *gomocupDriver) read() {
	defer close(d.replies)
	rr := gomocup.NewResponseReader(countingReader{d.e.proc.stdout, &d.out})
	for {
		resp, err := rr.Next()
		select {
		case d.replies <- reply{resp: resp, err: err}:
		case <-d.e.done: // nobody will read any more
			return
		}
		var se *gomocup.SyntaxError
		if err != nil && !errors.As(err, &se) {
			return
		}
	}
}

// send writes commands to the engine, each in one write(2) of its whole
// text (a BOARD block with its stones and DONE is one command), as
// Gomocup's managers write a line and flush it.
func (d *gomocupDriver) send(ctx context.Context, cmds ...gomocup.Command) error {
	for _, c := range cmds {
		var buf bytesWriter
		if err := gomocup.WriteCommand(&buf, c); err != nil {
			return err
		}
		d.sentAt = d.out.Load()
		if err := d.e.proc.write(ctx, buf); err != nil {
			return err
		}
	}
	return nil
}

type bytesWriter []byte

func (w *bytesWriter) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }

// settleWait bounds the wait, on the engine's own clock, for an engine to
// be done with its last move before it is asked for the next: at most
// this long for one that thinks on (pondering with suspend = false).
const settleWait = 25 * time.Millisecond

// drain logs and drops lines the engine sent when nothing was asked (say a
// late MESSAGE), so they are not taken for the next answer. It returns the
// first move among them: an answer nobody asked for.
func (d *gomocupDriver) drain() (stray string) {
	for {
		select {
		case r, ok := <-d.replies:
			if !ok {
				return stray
			}
			if r.err != nil {
				d.e.log.Warn("engine wrote between commands", "error", r.err)
				continue
			}
			d.e.log.Debug("engine wrote between commands", "line", r.resp.Kind.String(), "text", referee.Quote(r.resp.String()))
			switch r.resp.Kind {
			case gomocup.ReplyMove, gomocup.ReplyMoves, gomocup.ReplySuggest, gomocup.ReplySwap:
				if stray == "" {
					stray = referee.Quote(r.resp.String())
				}
			}
		default:
			return stray
		}
	}
}

// next returns the engine's next answer other than MESSAGE and DEBUG (which
// it logs). A junk line is returned as its *gomocup.SyntaxError; the end of
// the engine's output wraps referee.ErrDisconnected.
func (d *gomocupDriver) next(ctx context.Context) (gomocup.Response, error) {
	for {
		select {
		case <-ctx.Done():
			return gomocup.Response{}, ctx.Err()
		case r, ok := <-d.replies:
			if !ok {
				return gomocup.Response{}, fmt.Errorf("%w: the engine closed its output", referee.ErrDisconnected)
			}
			if r.err != nil {
				var se *gomocup.SyntaxError
				if errors.As(r.err, &se) {
					return gomocup.Response{}, r.err
				}
				return gomocup.Response{}, fmt.Errorf("%w: reading the engine: %v", referee.ErrDisconnected, r.err)
			}
			switch r.resp.Kind {
			case gomocup.ReplyMessage, gomocup.ReplyDebug:
				if err := d.flooded("an answer"); err != nil {
					return gomocup.Response{}, err
				}
				if r.resp.Kind == gomocup.ReplyMessage {
					d.e.log.Info("engine message", "text", referee.Quote(r.resp.Text))
				} else {
					d.e.log.Debug("engine debug", "text", referee.Quote(r.resp.Text))
				}
				continue
			}
			return r.resp, nil
		}
	}
}

// errTooLong is the error for a line past gomocup.MaxLineBytes: the one
// line from the engine no wait tolerates.
func errTooLong(what string) error {
	return fmt.Errorf("engine wrote a line longer than %d bytes %s", gomocup.MaxLineBytes, what)
}

// expectOK waits for OK to cmd. Junk lines are logged and skipped (some
// brains print a banner); ERROR and UNKNOWN are returned as errors, with
// unknown reporting UNKNOWN.
func (d *gomocupDriver) expectOK(ctx context.Context, cmd string) (unknown bool, err error) {
	for {
		r, err := d.next(ctx)
		var se *gomocup.SyntaxError
		if errors.Is(err, gomocup.ErrLineTooLong) {
			return false, errTooLong("instead of OK to " + cmd)
		}
		if errors.As(err, &se) {
			if err := d.flooded("OK to " + cmd); err != nil {
				return false, err
			}
			d.e.log.Warn("engine wrote junk", "waiting for", "OK to "+cmd, "error", err)
			continue
		}
		if err != nil {
			return false, err
		}
		switch r.Kind {
		case gomocup.ReplyOK:
			return false, nil
		case gomocup.ReplyError:
			return false, fmt.Errorf("engine answered ERROR to %s: %s", cmd, referee.Quote(r.Text))
		case gomocup.ReplyUnknown:
			return true, fmt.Errorf("engine answered UNKNOWN to %s: %s", cmd, referee.Quote(r.Text))
		}
		return false, fmt.Errorf("engine answered %s to %s instead of OK", r.Kind, cmd)
	}
}

// about sends ABOUT and waits for its answer (any line but MESSAGE and
// DEBUG will do: an old brain answers in free text, UNKNOWN is fine too),
// which shows the engine has read and done everything sent before it. A
// brain that does not answer within three quarters of what is left of
// ctx's time (the game goes on) is asked no more: its late answer is
// skipped while it is asked for a move.
func (d *gomocupDriver) about(ctx context.Context) error {
	if d.noAbout {
		return nil
	}
	if err := d.send(ctx, gomocup.Command{Kind: gomocup.CmdAbout}); err != nil {
		return err
	}
	wait := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeout(ctx, time.Until(dl)*3/4)
		defer cancel()
	}
	r, err := d.next(wait)
	var se *gomocup.SyntaxError
	switch {
	case errors.Is(err, gomocup.ErrLineTooLong):
		return errTooLong("instead of an answer to ABOUT")
	case errors.As(err, &se):
		d.e.log.Debug("engine answered ABOUT in free text", "error", err)
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		d.e.log.Warn("engine did not answer ABOUT in time: its INFO settings may be read in its first move's time; not asking it again",
			"timeout", d.e.startTimeout)
		d.noAbout = true
	case err != nil:
		return err
	default:
		d.e.log.Debug("engine ready", "about", referee.Quote(r.String()))
	}
	return nil
}

// newGame sets the engine up for a game within the start timeout, so
// nothing of it is charged to the first move: START, RECTSTART or RESTART,
// then the INFO settings (timeout_turn, timeout_match, rule, max_memory
// and the options; a brain may take a while over them, as Rapfi sizes its
// hash table at max_memory), then ABOUT, whose answer shows the engine has
// done all that.
func (d *gomocupDriver) newGame(ctx context.Context, s referee.Setup) error {
	ctx, cancel := context.WithTimeout(ctx, d.e.startTimeout)
	defer cancel()
	d.e.resume()
	defer d.e.suspend()
	d.e.proc.settle(idleWait)
	if stray := d.drain(); stray != "" {
		d.e.log.Warn("engine wrote a move nobody asked for before the game", "line", stray)
	}
	d.abandoned = false
	width, height := gomocup.BoardSize(s.Rules)
	if d.started && (width != d.width || height != d.height) {
		d.started = false
	}
	if d.started {
		if err := d.send(ctx, gomocup.Command{Kind: gomocup.CmdRestart}); err != nil {
			return err
		}
		unknown, err := d.expectOK(ctx, "RESTART")
		switch {
		case unknown:
			d.e.log.Debug("engine does not know RESTART; sending START again")
			d.started = false
		case err != nil:
			return err
		}
	}
	if !d.started {
		c := gomocup.Command{Kind: gomocup.CmdStart, Width: width, Height: height}
		if width != height {
			c.Kind = gomocup.CmdRectStart
		}
		if err := d.send(ctx, c); err != nil {
			return err
		}
		if unknown, err := d.expectOK(ctx, c.String()); err != nil {
			if unknown && c.Kind == gomocup.CmdRectStart {
				return fmt.Errorf("%w (it plays square boards only)", err)
			}
			return err
		}
		d.started, d.width, d.height = true, width, height
	}
	d.rules, d.fresh, d.known = s.Rules, true, 0
	d.pos = engine.NewPosition(s.Rules)
	for _, m := range s.Moves {
		if err := d.pos.Check(m); err != nil {
			return fmt.Errorf("set-up move %s: %w", s.Rules.FormatMove(m), err)
		}
		d.pos.Play(m)
	}
	// timeout_turn is each move's time (less what of the margin the
	// tolerance does not cover, see engineTime): the fixed time per move
	// now, or (with a clock) what the clock allows, sent before each move.
	// INFO settings persist, so only changes are sent.
	d.timed, d.turnSent = s.Clock.Timed(), -1
	var info []gomocup.Command
	if !d.timed {
		d.turnSent = engineTime(s.Clock.MoveTime, d.e.tolerance).Milliseconds()
		info = append(info, infoCmd(gomocup.InfoTimeoutTurn, d.turnSent))
	}
	info = append(info, infoCmd(gomocup.InfoTimeoutMatch, s.Clock.Main.Milliseconds()),
		infoCmd(gomocup.InfoRule, int64(gomocup.RuleOf(s.Rules.Line)))) // the rule of the game refereed
	if _, ok := d.e.opts[gomocup.InfoMaxMemory]; !ok {
		// The engine's memory cap (Config.Memory), as Gomocup's managers
		// tell a brain theirs; 0, no limit, without one. An option wins.
		info = append(info, infoCmd(gomocup.InfoMaxMemory, d.e.memory))
	}
	keys := make([]string, 0, len(d.e.opts))
	for k := range d.e.opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		info = append(info, gomocup.Command{Kind: gomocup.CmdInfo, Key: k, Value: d.e.opts[k]})
	}
	if err := d.send(ctx, info...); err != nil {
		return err
	}
	return d.about(ctx)
}

func infoCmd(key string, v int64) gomocup.Command {
	return gomocup.Command{Kind: gomocup.CmdInfo, Key: key, Value: strconv.FormatInt(v, 10)}
}

func (d *gomocupDriver) play(_ context.Context, m engine.Move) error {
	if d.pos == nil {
		return errors.New("no game: a move before NewGame")
	}
	if err := d.pos.Check(m); err != nil {
		return err
	}
	d.pos.Play(m) // told with TURN or BOARD when the engine is next asked
	return nil
}

func (d *gomocupDriver) undo(context.Context) error {
	if d.pos == nil {
		return errors.New("no game: undo before NewGame")
	}
	if _, ok := d.pos.Undo(); !ok {
		return errors.New("cannot undo: no move has been played")
	}
	if d.known > len(d.pos.Moves(nil)) {
		d.known = -1 // the engine knows a stone that is gone: BOARD next
	}
	return nil
}

// position returns the command that brings the engine up to date and asks
// for its move: BEGIN on an empty board it knows is empty, TURN when it is
// one move behind, BOARD otherwise.
func (d *gomocupDriver) position() (gomocup.Command, error) {
	moves := d.pos.Moves(nil)
	n := len(moves)
	switch {
	case n == 0 && d.known == 0 && d.fresh:
		return gomocup.Command{Kind: gomocup.CmdBegin}, nil
	case d.known >= 0 && d.known == n-1 && (d.known > 0 || d.fresh):
		p, err := gomocup.FromMove(d.rules, moves[n-1])
		return gomocup.Command{Kind: gomocup.CmdTurn, Point: p}, err
	}
	me := d.pos.ToMove()
	c := gomocup.Command{Kind: gomocup.CmdBoard}
	for i, m := range moves {
		p, err := gomocup.FromMove(d.rules, m)
		if err != nil {
			return c, err
		}
		f := gomocup.FieldOpponent
		if engine.Color(i%2) == me {
			f = gomocup.FieldOwn
		}
		c.Stones = append(c.Stones, gomocup.Stone{Point: p, Field: f})
	}
	return c, nil
}

// genMove asks for a move as Gomocup's managers do: INFO timeout_turn
// when it changed, INFO time_left before every BEGIN, TURN or BOARD (the
// clock's time, or the protocol's 2147483647 for an unlimited match), each
// command in a write of its own. While it waits for the coordinates it
// logs and skips every line that is not a move (ERROR, UNKNOWN, OK, an
// ABOUT answer, junk), as GomocupJudge does; only a line past
// gomocup.MaxLineBytes, or a move the engine wrote before it was asked,
// is a protocol error.
func (d *gomocupDriver) genMove(ctx context.Context, req referee.MoveRequest) (string, error) {
	if d.pos == nil {
		return "", errors.New("no game: genmove before NewGame")
	}
	d.e.resume()
	// An engine whose opponent answered at once may not be done with its
	// own last move yet (see process.suspendIdle): give it a moment.
	d.e.proc.settle(settleWait)
	if stray := d.drain(); stray != "" && !d.abandoned {
		return "", fmt.Errorf("engine wrote a move nobody asked for: %q", stray)
	}
	d.abandoned = false
	var cmds []gomocup.Command
	if turn := engineTime(req.Budget, d.e.tolerance).Milliseconds(); turn != d.turnSent {
		cmds = append(cmds, infoCmd(gomocup.InfoTimeoutTurn, turn))
		d.turnSent = turn
	}
	left := int64(gomocup.TimeLeftUnlimited)
	if d.timed {
		left = engineTime(req.Left(req.Color), d.e.tolerance).Milliseconds()
	}
	cmds = append(cmds, infoCmd(gomocup.InfoTimeLeft, left))
	ask, err := d.position()
	if err != nil {
		return "", err
	}
	cmds = append(cmds, ask)
	if err := d.send(ctx, cmds...); err != nil {
		return "", err
	}
	for {
		r, err := d.next(ctx)
		if ctx.Err() != nil && err == ctx.Err() {
			// The request was given up (the engine is killed when it
			// stalled): a move it writes later is no stray answer, and
			// its board may hold a stone the host does not know of.
			d.abandoned, d.known = true, -1
			return "", err
		}
		var se *gomocup.SyntaxError
		if errors.Is(err, gomocup.ErrLineTooLong) {
			return "", errTooLong("instead of a move")
		}
		if errors.As(err, &se) {
			if err := d.flooded("a move"); err != nil {
				return "", err
			}
			d.e.log.Warn("engine wrote a line that is not a move; ignored, as Gomocup managers do", "waiting for", "a move after "+ask.Kind.String(), "error", err)
			continue
		}
		if err != nil {
			return "", err
		}
		switch r.Kind {
		case gomocup.ReplyMove:
			return d.answer(r.Point), nil
		case gomocup.ReplySuggest:
			// The engine proposes; the manager decides: we take it.
			if err := d.send(ctx, gomocup.Command{Kind: gomocup.CmdPlay, Point: r.Point}); err != nil {
				return "", err
			}
			ask = gomocup.Command{Kind: gomocup.CmdPlay, Point: r.Point}
			continue
		}
		if err := d.flooded("a move"); err != nil {
			return "", err
		}
		d.e.log.Warn("engine answered something other than a move; ignored, as Gomocup managers do",
			"waiting for", "a move after "+ask.Kind.String(), "line", referee.Quote(r.String()))
	}
}

// answer turns the engine's point into the move text for the referee,
// playing it on the host's copy when it is legal. A point off the board is
// returned as it came ("20,3"), which the referee refuses as an illegal
// move, as it refuses an occupied cell.
func (d *gomocupDriver) answer(p gomocup.Point) string {
	m, err := gomocup.ToMove(d.rules, p)
	if err != nil {
		d.e.log.Warn("engine answered a point off the board", "point", p.String(), "error", err)
		return p.String()
	}
	if err := d.pos.Check(m); err != nil {
		d.e.log.Warn("engine answered an illegal move", "point", p.String(), "move", d.rules.FormatMove(m), "error", err)
		return d.rules.FormatMove(m)
	}
	d.pos.Play(m)
	d.known, d.fresh = len(d.pos.Moves(nil)), false
	d.e.suspendIdle()
	return d.rules.FormatMove(m)
}

// quit sends END (bounded; the caller waits for the exit).
func (d *gomocupDriver) quit() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_ = d.send(ctx, gomocup.Command{Kind: gomocup.CmdEnd})
}
