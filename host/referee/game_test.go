package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// fakePlayer answers GenMove from a script; it stands in for a bot process.
type fakePlayer struct {
	name    string
	answer  func(ctx context.Context, pos *engine.Position) (string, error)
	pos     *engine.Position
	exited  bool
	killed  bool
	playErr error
}

func (f *fakePlayer) Name() string { return f.name }
func (f *fakePlayer) NewGame(_ context.Context, s Setup) error {
	f.pos = engine.NewPosition(s.Rules)
	return f.pos.PlayMoveList(s.Moves)
}
func (f *fakePlayer) Play(_ context.Context, m engine.Move) error {
	if f.playErr != nil {
		return f.playErr
	}
	return f.pos.Apply(m)
}
func (f *fakePlayer) Undo(context.Context) error { f.pos.Undo(); return nil }
func (f *fakePlayer) GenMove(ctx context.Context, _ MoveRequest) (string, error) {
	text, err := f.answer(ctx, f.pos)
	if err == nil { // play it, as a bot does
		if m, perr := f.pos.Rules().ParseMove(text); perr == nil && f.pos.Legal(m) {
			f.pos.Play(m)
		}
	}
	return text, err
}
func (f *fakePlayer) Exit() (bool, string) { return f.exited, "exit status 3" }
func (f *fakePlayer) Kill()                { f.killed = true }
func (f *fakePlayer) Close()               { f.Kill() }

// firstLegal answers the first legal move.
func firstLegal(_ context.Context, pos *engine.Position) (string, error) {
	return pos.Rules().FormatMove(pos.LegalMoves(nil)[0]), nil
}

func TestForfeits(t *testing.T) {
	tests := []struct {
		name    string
		answer  func(*fakePlayer) func(context.Context, *engine.Position) (string, error)
		forfeit record.Forfeit
		detail  string
		killed  bool
	}{
		{"stall", func(*fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(ctx context.Context, _ *engine.Position) (string, error) { <-ctx.Done(); return "", ctx.Err() }
		}, record.ForfeitTimeout, "x (bot) timed out after 50 ms", true},
		{"late", func(*fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) {
				time.Sleep(120 * time.Millisecond)
				return "4", nil
			}
		}, record.ForfeitTimeout, "answered after", true},
		{"crash", func(f *fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) {
				f.exited = true
				return "", errors.New("connection reset")
			}
		}, record.ForfeitCrash, "x (bot) crashed: exit status 3", true},
		{"disconnect", func(*fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) {
				return "", fmt.Errorf("%w: transport closing", ErrDisconnected)
			}
		}, record.ForfeitCrash, "disconnected", true},
		{"error", func(*fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) { return "", errors.New("no idea") }
		}, record.ForfeitProtocolError, "answered an error: no idea", true},
		{"garbage", func(*fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) { return "zz!9", nil }
		}, record.ForfeitIllegalMove, "unparsable move", false},
		{"full column", func(*fakePlayer) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) { return "1", nil }
		}, record.ForfeitIllegalMove, "illegal move 1: column 1: column is full", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := New(engine.Connect4(), Config{Grace: 30 * time.Millisecond, Clock: Clock{MoveTime: 50 * time.Millisecond}})
			ctx := context.Background()
			for i := 0; i < 6; i++ { // fill column 1
				if err := g.Play(ctx, engine.Color(i&1), 0); err != nil {
					t.Fatal(err)
				}
			}
			bot := &fakePlayer{name: "bot"}
			bot.answer = tc.answer(bot)
			if err := g.Attach(ctx, engine.X, bot); err != nil {
				t.Fatal(err)
			}
			before := g.Position().Hash()
			out, err := g.GenMove(ctx, engine.X)
			if err != nil {
				t.Fatal(err)
			}
			if out.Played || out.Forfeit != tc.forfeit || !strings.Contains(out.Detail, tc.detail) {
				t.Errorf("outcome %+v; want forfeit %q with %q", out, tc.forfeit, tc.detail)
			}
			rec := g.Record()
			if rec.Result != "O+" || rec.Reason != record.ReasonForfeit || rec.Forfeit != tc.forfeit || *rec.Winner != "controller" {
				t.Errorf("record %+v", rec)
			}
			if bot.killed != tc.killed {
				t.Errorf("killed = %v, want %v", bot.killed, tc.killed)
			}
			if g.Position().Hash() != before || len(rec.Moves) != 6 {
				t.Errorf("a forfeit changed the position or lost the record's moves")
			}
			if err := g.Play(ctx, engine.X, 1); !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), "game is over") {
				t.Errorf("play after forfeit: %v", err)
			}
		})
	}
}

func TestGameToTheEnd(t *testing.T) {
	ctx := context.Background()
	rules, _ := engine.ParseRules("tictactoe")
	g := New(rules, Config{})
	a, b := &fakePlayer{name: "a", answer: firstLegal}, &fakePlayer{name: "b", answer: firstLegal}
	if err := g.Attach(ctx, engine.X, a); err != nil {
		t.Fatal(err)
	}
	if err := g.Attach(ctx, engine.O, b); err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if _, err := g.GenMove(ctx, g.Position().ToMove()); err != nil {
			t.Fatal(err)
		}
	}
	// First legal move each time: a1 b1 c1 a2 b2 c2 a3 — x wins on the diagonal c1 b2 a3.
	rec := g.Record()
	if rec.Result != "X+" || rec.Reason != record.ReasonWin || *rec.Winner != "a" || len(rec.Moves) != 7 {
		t.Errorf("record %+v", rec)
	}
	if a.pos.Hash() != g.Position().Hash() || b.pos.Hash() != g.Position().Hash() {
		t.Errorf("players did not follow the game")
	}
	if err := g.Undo(ctx); err != nil || g.Over() || a.pos.Ply() != 6 {
		t.Errorf("undo of the winning move: %v, over=%v", err, g.Over())
	}
}

func TestPlayRefusals(t *testing.T) {
	ctx := context.Background()
	g := New(engine.Connect4(), Config{})
	if err := g.Play(ctx, engine.O, 3); err == nil || !strings.Contains(err.Error(), "o is not to move") {
		t.Errorf("wrong side: %v", err)
	}
	if _, err := g.GenMove(ctx, engine.X); err == nil {
		t.Errorf("genmove with no player succeeded")
	}
	if err := g.Undo(ctx); err == nil {
		t.Errorf("undo on empty board succeeded")
	}
}

func TestBrokenPlayerForfeitsOnItsTurn(t *testing.T) {
	ctx := context.Background()
	g := New(engine.Connect4(), Config{})
	bot := &fakePlayer{name: "bot", answer: firstLegal, playErr: fmt.Errorf("%w: EOF", ErrDisconnected)}
	if err := g.Attach(ctx, engine.O, bot); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(ctx, engine.X, 3); err != nil {
		t.Fatal(err)
	}
	out, err := g.GenMove(ctx, engine.O)
	if err != nil || out.Forfeit != record.ForfeitCrash || g.Record().Result != "X+" {
		t.Errorf("outcome %+v, %v; record %s", out, err, g.Record().Summary())
	}
}

func TestClock(t *testing.T) {
	c := Clock{MoveTime: time.Second, Main: 10 * time.Second, Byo: 2 * time.Second, Stones: 2}
	var s sideClock
	s.reset(c)
	if b := s.budget(c); b != 12*time.Second {
		t.Errorf("budget in main time = %v", b)
	}
	s.spend(c, 11*time.Second) // main gone, 1 s into the first byo-yomi stone
	if s.main != 0 || s.stonesLeft != 1 || s.byo != time.Second {
		t.Errorf("after overrun: %+v", s)
	}
	s.spend(c, 500*time.Millisecond) // period complete: reset
	if s.stonesLeft != 2 || s.byo != 2*time.Second {
		t.Errorf("after the period: %+v", s)
	}
	inc := Clock{Main: time.Second, Increment: 100 * time.Millisecond}
	s.reset(inc)
	s.spend(inc, 300*time.Millisecond)
	if s.budget(inc) != 800*time.Millisecond {
		t.Errorf("after a move with increment: %v", s.budget(inc))
	}
	fixed := Clock{MoveTime: 300 * time.Millisecond}
	s.reset(fixed)
	if s.budget(fixed) != 300*time.Millisecond {
		t.Errorf("fixed move time budget = %v", s.budget(fixed))
	}
}
