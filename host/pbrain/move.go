package pbrain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// outcome is what the thinking goroutine came back with.
type outcome struct {
	out referee.Outcome
	err error
}

// move answers BEGIN, TURN and BOARD: it brings the game to target, asks the
// bot, and answers its move, or by the answer deadline a move of its own.
// Commands that arrive meanwhile are kept in the backlog, but END (or the
// end of input), which ends the session at once.
func (b *Brain) move(ctx context.Context, at time.Time, target []engine.Move, items <-chan item) error {
	limit := b.info.limit(b.cfg, b.spent)
	margin := min(b.cfg.Margin, limit/2)
	thinkBy := at.Add(limit - margin)
	answerBy := at.Add(limit - margin/2)

	snap := engine.NewPosition(b.rules)
	if err := snap.PlayMoveList(target); err != nil {
		return b.reply(gomocup.Error("%v", err))
	}
	us := snap.ToMove()
	sink := &progressSink{rules: b.rules, pos: snap, w: b.w, log: b.log, best: engine.NoMove}

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		out, err := b.think(wctx, target, us, thinkBy, margin/4, sink)
		done <- outcome{out, err}
	}()
	timer := time.NewTimer(answerBy.Sub(b.cfg.Now()))
	defer timer.Stop()
	var res outcome
	finished := false
wait:
	for {
		select {
		case res = <-done:
			finished = true
			break wait
		case <-timer.C:
			break wait
		case it := <-items:
			if errors.Is(it.err, io.EOF) || (it.err == nil && it.cmd.Kind == gomocup.CmdEnd) {
				b.log.Info("END while the bot thinks: stopping it")
				cancel()
				<-done
				return errEnd
			}
			b.backlog = append(b.backlog, it)
		case <-ctx.Done():
			cancel()
			<-done
			return ctx.Err()
		}
	}
	sink.stop()
	played := finished && res.err == nil && res.out.Played
	answer := res.out.Move
	why := ""
	if !played {
		why = "the bot gave no answer in time"
		if finished {
			why = describe(res)
		}
		var how string
		answer, how = fallback(snap, sink.bestMove())
		why += "; answering " + how
	}
	p, err := gomocup.FromMove(b.rules, answer)
	if err != nil {
		return fmt.Errorf("answer move %d: %w", answer, err)
	}
	werr := b.reply(gomocup.Move(p))
	b.spent += b.cfg.Now().Sub(at)
	if played {
		return werr
	}
	b.log.Warn("the brain answered a move of its own", "move", p.String(), "why", why)
	cancel()
	if !finished {
		res = <-done
	}
	b.recover(ctx, target, answer, res)
	return werr
}

// recover brings the game to target plus the brain's own answer after the
// bot failed to give it, killing a bot that failed and starting a fresh one
// for the next move.
func (b *Brain) recover(ctx context.Context, target []engine.Move, answer engine.Move, res outcome) {
	resigned := res.err == nil && res.out.Forfeit == "" && !res.out.Played && res.out.Detail != ""
	if !resigned {
		b.dropPlayer("it failed to move: killed, a fresh one plays the next move")
	}
	g, err := b.newGame(b.rules, append(append([]engine.Move(nil), target...), answer))
	if err != nil { // cannot happen: the answer is legal in target
		b.log.Error("rebuild the game", "error", err)
		return
	}
	if b.player != nil {
		for _, c := range []engine.Color{engine.X, engine.O} {
			if b.game.Player(c) == b.player {
				_ = b.game.Attach(ctx, c, nil)
			}
		}
	}
	b.game = g
	// In the background: the next command's clock may already run. The
	// next move attaches the fresh bot (waiting for it within its limit).
	if b.player == nil && b.spare == nil {
		b.startSpare()
	}
}

// describe says why a finished move request gave no move.
func describe(res outcome) string {
	switch {
	case res.err != nil:
		return "the bot could not be asked: " + res.err.Error()
	case res.out.Forfeit == record.ForfeitTimeout:
		return "the bot was late: " + res.out.Detail
	case res.out.Forfeit != "":
		return fmt.Sprintf("the bot failed (%s): %s", res.out.Forfeit, res.out.Detail)
	case res.out.Detail != "":
		return "the bot resigned: " + res.out.Detail
	}
	return "the bot gave no move"
}

// think runs in its own goroutine: it syncs the game with target, makes sure
// the bot plays side us, and asks it for a move due at thinkBy.
func (b *Brain) think(ctx context.Context, target []engine.Move, us engine.Color, thinkBy time.Time, grace time.Duration, sink *progressSink) (referee.Outcome, error) {
	if err := b.sync(ctx, target); err != nil {
		return referee.Outcome{}, err
	}
	if err := b.ensure(ctx, us); err != nil {
		return referee.Outcome{}, fmt.Errorf("start the bot: %w", err)
	}
	budget := max(thinkBy.Sub(b.cfg.Now()), time.Millisecond)
	b.game.SetClock(referee.Clock{MoveTime: budget})
	b.game.SetGrace(max(grace, time.Millisecond))
	return b.game.GenMoveProgress(ctx, us, sink.report)
}

// sync brings the game to target: nothing to do, one opponent move to play,
// or a new game at that position (the bot is attached to it afresh).
func (b *Brain) sync(ctx context.Context, target []engine.Move) error {
	cur := b.game.Position().Moves(nil)
	if len(target) == len(cur)+1 && slices.Equal(cur, target[:len(cur)]) && !b.game.Over() {
		return b.game.Play(ctx, b.game.Position().ToMove(), target[len(cur)])
	}
	if slices.Equal(cur, target) && !b.game.Over() {
		return nil
	}
	g, err := b.newGame(b.rules, target)
	if err != nil {
		return err
	}
	if b.player != nil {
		for _, c := range []engine.Color{engine.X, engine.O} {
			if b.game.Player(c) == b.player {
				_ = b.game.Attach(ctx, c, nil)
			}
		}
	}
	b.game = g
	return nil
}

// progressSink turns one move's progress reports into MESSAGE lines and
// keeps the best legal move reported; after stop it drops everything, so
// nothing is written after the answer.
type progressSink struct {
	rules engine.Rules
	pos   *engine.Position // the position the bot thinks about
	w     *gomocup.Writer
	log   interface {
		Debug(msg string, args ...any)
	}
	mu      sync.Mutex
	stopped bool
	best    engine.Move
}

func (s *progressSink) report(p botapi.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.log.Debug("thinking", "depth", p.Depth, "score", p.Score, "best", p.BestMove, "nodes", p.Nodes)
	var b strings.Builder
	fmt.Fprintf(&b, "depth %d score %d nodes %d", p.Depth, p.Score, p.Nodes)
	if m, err := s.rules.ParseMove(p.BestMove); err == nil && s.pos.Legal(m) {
		s.best = m
		pt, _ := gomocup.FromMove(s.rules, m)
		b.WriteString(" best " + pt.String())
	}
	var pv []string
	for _, t := range p.PV {
		m, err := s.rules.ParseMove(t)
		if err != nil {
			break
		}
		pt, err := gomocup.FromMove(s.rules, m)
		if err != nil {
			break
		}
		pv = append(pv, pt.String())
	}
	if len(pv) > 0 {
		b.WriteString(" pv " + strings.Join(pv, " "))
	}
	_ = s.w.Response(gomocup.Message(b.String()))
}

func (s *progressSink) stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
}

func (s *progressSink) bestMove() engine.Move {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.best
}

// fallback picks the brain's own move in pos: the bot's best move so far if
// it is legal, else a win in one, else a block of the opponent's win in one,
// else the free cell next to a stone nearest the centre (the centre on an
// empty board). how says which.
func fallback(pos *engine.Position, best engine.Move) (engine.Move, string) {
	if best != engine.NoMove && pos.Legal(best) {
		return best, "the bot's best move so far"
	}
	r := pos.Rules()
	us := pos.ToMove()
	free := pos.LegalMoves(nil)
	for _, m := range free {
		if pos.WinsAt(pos.Cell(m), us) {
			return m, "a winning move"
		}
	}
	for _, m := range free {
		if pos.WinsAt(pos.Cell(m), us.Other()) {
			return m, "a move that blocks the opponent's win"
		}
	}
	// Twice the distance to the centre, squared, so odd sides stay exact.
	dist := func(m engine.Move) int {
		row, col := int(m)/r.Cols, int(m)%r.Cols
		dr, dc := 2*row-(r.Rows-1), 2*col-(r.Cols-1)
		return dr*dr + dc*dc
	}
	near := func(m engine.Move) bool {
		row, col := int(m)/r.Cols, int(m)%r.Cols
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				rr, cc := row+dr, col+dc
				if rr >= 0 && rr < r.Rows && cc >= 0 && cc < r.Cols && pos.At(rr, cc) != engine.Empty {
					return true
				}
			}
		}
		return false
	}
	pick := engine.NoMove
	for _, want := range []bool{true, false} { // next to a stone, then anywhere
		for _, m := range free {
			if (!want || near(m)) && (pick == engine.NoMove || dist(m) < dist(pick)) {
				pick = m
			}
		}
		if pick != engine.NoMove {
			break
		}
	}
	return pick, "a legal move near the stones and the centre"
}
