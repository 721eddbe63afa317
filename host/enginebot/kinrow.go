package enginebot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/gtp"
)

// MaxMoveAnswer bounds the answer of a kinrow-protocol engine to genmove: a
// longer answer, or one of several lines, is a protocol error, never quoted
// whole. (Every answer is bounded by MaxAnswerBytes, each line of it by
// gtp.MaxLineBytes.) It is the referee's quote: whatever is refused can
// be quoted whole.
const MaxMoveAnswer = referee.MaxQuote

// MaxAnswerBytes bounds any answer read from a kinrow-protocol engine
// (gtp.Client.MaxAnswer); past it the engine forfeits by protocol error.
const MaxAnswerBytes = 64 << 10

// kinrowDriver speaks the host's own text protocol to the engine, as a
// controller (protocol/gtp's Client).
type kinrowDriver struct {
	e        *Engine
	c        *gtp.Client
	rules    engine.Rules
	pos      *engine.Position
	moveTime int64 // the kinrow-movetime sent last, ms (0: none)
	stray    error // the engine wrote an answer nobody asked for (found by play)
}

// engineWriter writes to the engine's stdin with deadlines (the Client's
// writes have no context).
type engineWriter struct{ p *process }

func (w engineWriter) Write(b []byte) (int, error) {
	if err := w.p.write(context.Background(), b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// newKinrow offers the engine a key to sign its answers with (kinrow-key,
// the first command), then checks that it answers protocol_version (any
// answer, even a failure, shows it speaks the framing).
//
// Commands carry ids from a random start, and an answer must carry its
// command's id (gtp.Client.RequireIDs). An engine that takes the key
// (kinrow's Java bridge does) signs every answer from then on: its id is
// the tag of the command and of the answer under the key
// (gtp.AnswerKey.Tag), and any other answer is a protocol error. So what
// the course player inside the bridge writes on the protocol stream is
// never taken for an answer, whatever it has read: the key reached the
// bridge before any of the player's code ran (docs/BOTS.md, "What the
// bridge guarantees"). An engine that refuses kinrow-key (any other) is
// driven as before, with ids.
func newKinrow(ctx context.Context, e *Engine) (*kinrowDriver, error) {
	d := &kinrowDriver{e: e, c: gtp.NewClient(engineWriter{e.proc}, e.proc.stdout)}
	d.c.SetMaxAnswer(MaxAnswerBytes)
	if err := d.c.RequireIDs(); err != nil {
		return nil, err
	}
	key, err := gtp.NewAnswerKey()
	if err != nil {
		return nil, err
	}
	unspoken := func(first string, err error) error {
		if errors.Is(err, gtp.ErrMalformedResponse) {
			return fmt.Errorf("it does not speak the kinrow protocol (GTP framing): %w", err)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("no answer to %s: %w", first, err)
		}
		return e.wrap(err)
	}
	_, signed, err := d.c.Authenticate(ctx, key, "kinrow-key", key.String())
	if err != nil {
		return nil, unspoken("kinrow-key, its first command", err)
	}
	r, err := d.c.Do(ctx, "protocol_version")
	if err != nil {
		return nil, unspoken("protocol_version", err)
	}
	e.log.Debug("engine ready", "protocol_version", r.Text, "signed_answers", signed)
	e.suspend()
	return d, nil
}

// do sends one command and returns the text of a success answer; a failure
// answer is an error quoting it.
func (d *kinrowDriver) do(ctx context.Context, name string, args ...string) (string, error) {
	r, err := d.c.Do(ctx, name, args...)
	if err != nil {
		return "", err
	}
	if !r.OK {
		return "", fmt.Errorf("engine refused %s: ? %s", strings.TrimSpace(name+" "+strings.Join(args, " ")), r.Text)
	}
	return r.Text, nil
}

func (d *kinrowDriver) newGame(ctx context.Context, s referee.Setup) error {
	d.e.resume()
	defer d.e.suspend()
	if _, err := d.do(ctx, "rules", s.Rules.String()); err != nil {
		return err
	}
	keys := make([]string, 0, len(d.e.opts))
	for k := range d.e.opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args := append([]string{k}, strings.Fields(d.e.opts[k])...)
		if _, err := d.do(ctx, "kinrow-option", args...); err != nil {
			return err
		}
	}
	d.rules, d.pos, d.moveTime = s.Rules, engine.NewPosition(s.Rules), 0
	// The move time (under a per-move limit) and the engine's side before
	// the first move, so it can prepare under this call's bound rather than a
	// move's clock (the Java bridge calls a course player's initPlayer then).
	// Refusals are ignored: the engine may not know these commands.
	if !s.Clock.Timed() && s.Clock.MoveTime > 0 {
		ms := engineTime(s.Clock.MoveTime, 0).Milliseconds()
		if _, err := d.c.Do(ctx, "kinrow-movetime", strconv.FormatInt(ms, 10)); err != nil {
			return err
		}
		d.moveTime = ms
	}
	if r, err := d.c.Do(ctx, "kinrow-side", s.Color.String()); err != nil {
		return err
	} else if !r.OK {
		d.e.log.Debug("engine refused kinrow-side", "answer", r.Text)
	}
	for _, m := range s.Moves {
		if err := d.playMove(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// playMove tells the engine the side to move played m.
func (d *kinrowDriver) playMove(ctx context.Context, m engine.Move) error {
	if err := d.pos.Check(m); err != nil {
		return err
	}
	if _, err := d.do(ctx, "play", d.pos.ToMove().String(), d.rules.FormatMove(m)); err != nil {
		return err
	}
	d.pos.Play(m)
	return nil
}

func (d *kinrowDriver) play(ctx context.Context, m engine.Move) error {
	if d.pos == nil {
		return errors.New("no game: a move before NewGame")
	}
	if d.stray != nil {
		return nil // it forfeits when next asked for a move
	}
	d.e.resume()
	err := d.playMove(ctx, m)
	if errors.Is(err, gtp.ErrUnexpectedAnswer) {
		// A stray extra answer is the engine's protocol error, told as
		// such when it is next asked to move, not a failure to follow the
		// game.
		d.stray = err
		return nil
	}
	return err
}

func (d *kinrowDriver) undo(ctx context.Context) error {
	if d.pos == nil {
		return errors.New("no game: undo before NewGame")
	}
	d.e.resume()
	defer d.e.suspend()
	if _, err := d.do(ctx, "undo"); err != nil {
		return err
	}
	d.pos.Undo()
	return nil
}

// engineTime is the time an engine is told it has (Gomocup's timeout_turn
// and time_left, kinrow-movetime): the time less a margin kept back for the
// pipes, the signals and the engine's own bookkeeping — a tenth, at most
// 200 ms — of which the tolerance the engine gets past its deadline covers
// a part or all. A Gomocup engine with the default tolerance of a second is
// told its whole time, as Gomocup's managers tell timeout_turn and accept
// an answer until timeout_turn plus their tolerance; a kinrow-protocol
// engine (no tolerance) is told the time less the margin, and the
// referee's grace comes on top.
func engineTime(budget, tolerance time.Duration) time.Duration {
	margin := max(min(budget/10, 200*time.Millisecond)-tolerance, 0)
	return max(budget-margin, time.Millisecond)
}

func (d *kinrowDriver) genMove(ctx context.Context, req referee.MoveRequest) (string, error) {
	if d.pos == nil {
		return "", errors.New("no game: genmove before NewGame")
	}
	if d.stray != nil {
		return "", strayAnswer(d.stray)
	}
	d.e.resume()
	if ms := engineTime(req.Budget, 0).Milliseconds(); ms != d.moveTime {
		r, err := d.c.Do(ctx, "kinrow-movetime", strconv.FormatInt(ms, 10))
		if err != nil {
			return "", strayAnswer(err)
		}
		if !r.OK {
			d.e.log.Debug("engine refused kinrow-movetime; it keeps its own time", "answer", r.Text)
		}
		d.moveTime = ms
	}
	text, err := d.do(ctx, "genmove", req.Color.String())
	if err != nil {
		return "", strayAnswer(err)
	}
	text = strings.TrimSpace(text)
	if len(text) > MaxMoveAnswer || strings.ContainsAny(text, "\r\n") {
		return "", fmt.Errorf("engine answered %d bytes on %d lines to genmove: not a move (at most one line of %d bytes)",
			len(text), strings.Count(text, "\n")+1, MaxMoveAnswer)
	}
	if strings.EqualFold(text, "resign") {
		return text, nil
	}
	if m, perr := d.rules.ParseMove(text); perr == nil && d.pos.Check(m) == nil {
		d.pos.Play(m)
		d.e.suspendIdle()
	}
	return text, nil
}

// quit sends quit without waiting for the answer.
func (d *kinrowDriver) quit() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, _ = d.c.Do(ctx, "quit")
}

// strayAnswer words an answer the engine wrote before it was asked the same
// way whether play found it first or the move request did: a protocol
// error, whichever of the two saw it. An answer a signing engine did not
// sign is said to be so: bytes its signer did not write (a course player
// writing on the Java bridge's protocol stream).
func strayAnswer(err error) error {
	if errors.Is(err, gtp.ErrUnsignedAnswer) {
		return fmt.Errorf("engine's output holds an answer it did not sign (forged): %w", err)
	}
	if errors.Is(err, gtp.ErrUnexpectedAnswer) {
		return fmt.Errorf("engine wrote an answer nobody asked for: %w", err)
	}
	return err
}
