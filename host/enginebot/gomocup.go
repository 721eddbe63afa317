package enginebot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/kinrow/kinrow/engine"
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
}

func newGomocup(e *Engine) *gomocupDriver {
	d := &gomocupDriver{e: e, replies: make(chan reply, 16), turnSent: -1}
	go d.read()
	return d
}

// read forwards the engine's lines until its output ends.
func (d *gomocupDriver) read() {
	defer close(d.replies)
	rr := gomocup.NewResponseReader(d.e.proc.stdout)
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

// send writes commands to the engine.
func (d *gomocupDriver) send(ctx context.Context, cmds ...gomocup.Command) error {
	var b []byte
	for _, c := range cmds {
		var buf bytesWriter
		if err := gomocup.WriteCommand(&buf, c); err != nil {
			return err
		}
		b = append(b, buf...)
	}
	return d.e.proc.write(ctx, b)
}

type bytesWriter []byte

func (w *bytesWriter) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }

// drain logs and drops lines the engine sent when nothing was asked (say a
// late MESSAGE), so they are not taken for the next answer.
func (d *gomocupDriver) drain() {
	for {
		select {
		case r, ok := <-d.replies:
			if !ok {
				return
			}
			if r.err != nil {
				d.e.log.Warn("engine wrote between commands", "error", r.err)
				continue
			}
			d.e.log.Debug("engine wrote between commands", "line", r.resp.Kind.String(), "text", r.resp.Text)
		default:
			return
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
			case gomocup.ReplyMessage:
				d.e.log.Info("engine message", "text", r.resp.Text)
				continue
			case gomocup.ReplyDebug:
				d.e.log.Debug("engine debug", "text", r.resp.Text)
				continue
			}
			return r.resp, nil
		}
	}
}

// expectOK waits for OK to cmd. Junk lines are logged and skipped (some
// brains print a banner); ERROR and UNKNOWN are returned as errors, with
// unknown reporting UNKNOWN.
func (d *gomocupDriver) expectOK(ctx context.Context, cmd string) (unknown bool, err error) {
	for {
		r, err := d.next(ctx)
		var se *gomocup.SyntaxError
		if errors.As(err, &se) {
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
			return false, fmt.Errorf("engine answered ERROR to %s: %s", cmd, r.Text)
		case gomocup.ReplyUnknown:
			return true, fmt.Errorf("engine answered UNKNOWN to %s: %s", cmd, r.Text)
		}
		return false, fmt.Errorf("engine answered %s to %s instead of OK", r.Kind, cmd)
	}
}

func (d *gomocupDriver) newGame(ctx context.Context, s referee.Setup) error {
	d.e.resume()
	defer d.e.suspend()
	d.drain()
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
	// timeout_turn is each move's time less a margin (engineMoveTime): the
	// fixed time per move now, or (with a clock) what the clock allows,
	// sent before each move with time_left. INFO settings persist, so only
	// changes are sent.
	d.timed, d.turnSent = s.Clock.Timed(), -1
	var info []gomocup.Command
	if !d.timed {
		d.turnSent = engineMoveTime(s.Clock.MoveTime).Milliseconds()
		info = append(info, infoCmd(gomocup.InfoTimeoutTurn, d.turnSent))
	}
	info = append(info, infoCmd(gomocup.InfoTimeoutMatch, s.Clock.Main.Milliseconds()),
		infoCmd(gomocup.InfoRule, int64(gomocup.RuleFreestyle)))
	if _, ok := d.e.opts[gomocup.InfoMaxMemory]; !ok {
		info = append(info, infoCmd(gomocup.InfoMaxMemory, 0)) // no limit, unless an option sets one
	}
	keys := make([]string, 0, len(d.e.opts))
	for k := range d.e.opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		info = append(info, gomocup.Command{Kind: gomocup.CmdInfo, Key: k, Value: d.e.opts[k]})
	}
	return d.send(ctx, info...)
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

func (d *gomocupDriver) genMove(ctx context.Context, req referee.MoveRequest) (string, error) {
	if d.pos == nil {
		return "", errors.New("no game: genmove before NewGame")
	}
	d.e.resume()
	d.drain()
	var cmds []gomocup.Command
	if turn := engineMoveTime(req.MoveTime).Milliseconds(); turn != d.turnSent {
		cmds = append(cmds, infoCmd(gomocup.InfoTimeoutTurn, turn))
		d.turnSent = turn
	}
	if d.timed {
		cmds = append(cmds, infoCmd(gomocup.InfoTimeLeft, engineMoveTime(req.Left[req.Color]).Milliseconds()))
	}
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
		var se *gomocup.SyntaxError
		if errors.As(err, &se) {
			return "", fmt.Errorf("engine answered junk to %s instead of a move: %v", ask.Kind, err)
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
		case gomocup.ReplyError, gomocup.ReplyUnknown:
			return "", fmt.Errorf("engine answered %s to %s: %s", r.Kind, ask.Kind, r.Text)
		}
		return "", fmt.Errorf("engine answered %s to %s instead of a move", r.Kind, ask.Kind)
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
	d.e.suspend()
	return d.rules.FormatMove(m)
}

// quit sends END (bounded; the caller waits for the exit).
func (d *gomocupDriver) quit() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_ = d.send(ctx, gomocup.Command{Kind: gomocup.CmdEnd})
}
