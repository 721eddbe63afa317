package referee_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
)

func TestForfeits(t *testing.T) {
	tests := []struct {
		name    string
		answer  func(*refereetest.Player) func(context.Context, *engine.Position) (string, error)
		forfeit record.Forfeit
		detail  string
		killed  bool
	}{
		{"stall", func(*refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(ctx context.Context, _ *engine.Position) (string, error) { <-ctx.Done(); return "", ctx.Err() }
		}, record.ForfeitTimeout, "x (bot) timed out after 50 ms", true},
		{"late", func(*refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) {
				time.Sleep(120 * time.Millisecond)
				return "4", nil
			}
		}, record.ForfeitTimeout, "answered after", true},
		{"crash", func(f *refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) {
				f.Crash()
				return "", errors.New("connection reset")
			}
		}, record.ForfeitCrash, "x (bot) crashed: exit status 3", true},
		{"disconnect", func(*refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) {
				return "", fmt.Errorf("%w: transport closing", referee.ErrDisconnected)
			}
		}, record.ForfeitCrash, "disconnected", true},
		{"error", func(*refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) { return "", errors.New("no idea") }
		}, record.ForfeitProtocolError, "answered an error: no idea", true},
		{"garbage", func(*refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) { return "zz!9", nil }
		}, record.ForfeitIllegalMove, "unparsable move", false},
		{"full column", func(*refereetest.Player) func(context.Context, *engine.Position) (string, error) {
			return func(context.Context, *engine.Position) (string, error) { return "1", nil }
		}, record.ForfeitIllegalMove, "illegal move 1: column 1: column is full", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := referee.New(engine.Connect4(), referee.Config{Grace: 30 * time.Millisecond, Clock: referee.Clock{MoveTime: 50 * time.Millisecond}})
			ctx := context.Background()
			for i := 0; i < 6; i++ { // fill column 1
				if err := g.Play(ctx, engine.Color(i&1), 0); err != nil {
					t.Fatal(err)
				}
			}
			bot := &refereetest.Player{Label: "bot"}
			bot.Answer = tc.answer(bot)
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
			if bot.Killed() != tc.killed || out.Killed != tc.killed {
				t.Errorf("killed = %v, outcome says %v, want %v", bot.Killed(), out.Killed, tc.killed)
			}
			if g.Position().Hash() != before || len(rec.Moves) != 6 {
				t.Errorf("a forfeit changed the position or lost the record's moves")
			}
			if err := g.Play(ctx, engine.X, 1); !errors.Is(err, referee.ErrIllegalMove) || !strings.Contains(err.Error(), "game is over") {
				t.Errorf("play after forfeit: %v", err)
			}
		})
	}
}

func TestGameToTheEnd(t *testing.T) {
	ctx := context.Background()
	rules, _ := engine.ParseRules("tictactoe")
	g := referee.New(rules, referee.Config{})
	a, b := &refereetest.Player{Label: "a", Answer: refereetest.FirstLegal}, &refereetest.Player{Label: "b", Answer: refereetest.FirstLegal}
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
	if a.Hash() != g.Position().Hash() || b.Hash() != g.Position().Hash() {
		t.Errorf("players did not follow the game")
	}
	if err := g.Undo(ctx); err != nil || g.Over() || g.Position().Ply() != 6 || g.Record().Result != "" {
		t.Errorf("undo of the winning move: %v, over=%v", err, g.Over())
	}
	g.Settle(ctx)
	if a.Hash() != g.Position().Hash() || b.Hash() != g.Position().Hash() {
		t.Errorf("players did not follow the undo")
	}
	for _, p := range []*refereetest.Player{a, b} {
		if calls, overlapped := p.Calls(); overlapped {
			t.Errorf("%s: calls overlapped: %v", p.Label, calls)
		}
	}
}

func TestPlayRefusals(t *testing.T) {
	ctx := context.Background()
	g := referee.New(engine.Connect4(), referee.Config{})
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
	g := referee.New(engine.Connect4(), referee.Config{})
	bot := &refereetest.Player{Label: "bot", Answer: refereetest.FirstLegal, PlayErr: fmt.Errorf("%w: EOF", referee.ErrDisconnected)}
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

// TestForbiddenForfeit: in renju, black's bot answering a double three
// forfeits with reason forbidden, the move and the foul quoted, and is not
// killed (it broke a rule, not the protocol); the same answer is a move in
// freestyle, and a forbidden move given by the controller is refused.
func TestForbiddenForfeit(t *testing.T) {
	ctx := context.Background()
	for _, rs := range []string{"renju", "gomoku"} {
		t.Run(rs, func(t *testing.T) {
			rules, _ := engine.ParseRules(rs)
			g := referee.New(rules, referee.Config{Clock: referee.Clock{MoveTime: time.Second}})
			for _, s := range []string{"f8", "a1", "g8", "c1", "h9", "e1", "h10", "a15"} {
				m, _ := rules.ParseMove(s)
				if err := g.Play(ctx, g.Position().ToMove(), m); err != nil {
					t.Fatal(err)
				}
			}
			h8, _ := rules.ParseMove("h8")
			err := g.Play(ctx, engine.X, h8)
			if rs == "renju" && (!errors.Is(err, referee.ErrIllegalMove) || !strings.Contains(err.Error(), "double three")) {
				t.Fatalf("controller's h8: %v; want an illegal move naming the double three", err)
			}
			if rs == "gomoku" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			bot := &refereetest.Player{Label: "bot", Answer: func(context.Context, *engine.Position) (string, error) { return "h8", nil }}
			if err := g.Attach(ctx, engine.X, bot); err != nil {
				t.Fatal(err)
			}
			out, err := g.GenMove(ctx, engine.X)
			if err != nil {
				t.Fatal(err)
			}
			if out.Played || out.Forfeit != record.ForfeitForbidden || !strings.Contains(out.Detail, "played h8, forbidden by the rules (renju): double three") {
				t.Errorf("outcome %+v; want forfeit forbidden quoting h8 and the double three", out)
			}
			rec := g.Record()
			if rec.Result != "O+" || rec.Forfeit != record.ForfeitForbidden || bot.Killed() || out.Killed {
				t.Errorf("record %+v, killed %v", rec, bot.Killed())
			}
		})
	}
}

// TestRenjuBlackWithNoLegalMove: the board filled but h8, which black
// (to move after white's last move) may not play (f8-m8 would be an
// overline): the game ends drawn when white's bot plays that move, the
// record saying why.
func TestRenjuBlackWithNoLegalMove(t *testing.T) {
	ctx := context.Background()
	rules, _ := engine.ParseRules("renju")
	// Every black move on the way is legal and no one makes five (the
	// engine's TestRenjuBlackWithNoLegalMoveDraws plays the same game).
	moves, err := rules.ParseMoveList("p5 f14 o4 g7 c1 l7 a6 p7 g9 j12 c10 g3 n10 n15 d7 d6 o7 a11 l5 h4 n1 j3 j13 m13 o3 k10 c6 c7 p9 f10 k3 n11 " +
		"e14 j15 g2 m5 d3 g15 b4 a3 e9 d10 n2 h14 l13 c12 k7 b13 n6 a12 c14 b14 k4 h6 b12 o2 p10 k2 a1 g4 a14 n3 n14 e11 b8 " +
		"e4 j8 b2 l10 c8 j9 f5 b15 p11 n5 j4 h7 d2 j2 l11 e6 a4 g13 k9 f7 k13 e5 d5 e13 l15 d11 m6 d15 a7 o8 n7 g10 p15 j5 " +
		"l3 h3 k5 j14 o1 l1 j11 c13 m7 m15 c3 k15 m12 a13 m1 o15 b1 d12 e8 j6 o6 a2 c11 c9 n12 e2 n8 f11 p8 l14 f6 a5 f2 n9 " +
		"k6 m3 e3 g1 f9 l2 h9 m8 b9 h12 m9 l9 o9 j10 f13 o12 m14 d4 k1 m11 m10 g8 e15 j1 c15 p6 l12 p2 g11 p14 o13 b11 o10 " +
		"h11 f1 a10 a15 k11 h5 a9 o14 f15 h1 p1 p4 b7 p3 k12 c4 d8 d9 h15 l4 o11 j7 e10 a8 f8 g12 e1 m2 p13 e7 g5 k14 f3 " +
		"d14 c5 b10 g14 h2 b3 e12 f4 h10 g6 b5 f12 p12 k8 n4 n13 d13 l6 d1 c2 o5 l8 h13 m4")
	if err != nil {
		t.Fatal(err)
	}
	g := referee.New(rules, referee.Config{Clock: referee.Clock{MoveTime: time.Second}})
	for _, m := range moves {
		if err := g.Play(ctx, g.Position().ToMove(), m); err != nil {
			t.Fatal(err)
		}
	}
	bot := &refereetest.Player{Label: "white", Answer: func(context.Context, *engine.Position) (string, error) { return "b6", nil }}
	if err := g.Attach(ctx, engine.O, bot); err != nil {
		t.Fatal(err)
	}
	if _, err := g.GenMove(ctx, engine.O); err != nil {
		t.Fatal(err)
	}
	rec := g.Record()
	if !g.Over() || rec.Result != "0" || rec.Reason != record.ReasonDraw || !strings.Contains(rec.Detail, "x has no legal move") {
		t.Errorf("over %v, record %s %s %q; want a draw, x having no legal move", g.Over(), rec.Result, rec.Reason, rec.Detail)
	}
}
