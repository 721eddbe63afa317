package pluginbot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// playOut plays the game to its end, each side by its player.
func playOut(t *testing.T, g *referee.Game) {
	t.Helper()
	ctx := context.Background()
	for !g.Over() {
		if _, err := g.GenMove(ctx, g.Position().ToMove()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVersion1BotPlays: a bot of plugin protocol version 1 (an RPC per
// request, no Session method) still loads and plays whole games, against a
// version-2 bot, through the referee.
func TestVersion1BotPlays(t *testing.T) {
	l := newLoader(t)
	ctx := context.Background()
	old := startBot(t, l, "v1bot", nil)
	cur := startBot(t, l, "random", map[string]string{"seed": "3"})
	if old.ProtocolVersion() != botapi.Version1 || cur.ProtocolVersion() != botapi.Version2 {
		t.Fatalf("versions: v1bot %d, random %d", old.ProtocolVersion(), cur.ProtocolVersion())
	}
	for game := range 3 {
		x, o := referee.Player(old), referee.Player(cur)
		if game%2 == 1 {
			x, o = o, x
		}
		g := connect4(t, referee.Clock{MoveTime: 10 * time.Second}, x, o)
		playOut(t, g)
		if rec := g.Record(); rec.Reason != record.ReasonWin && rec.Reason != record.ReasonDraw {
			t.Errorf("game %d ended by %s: %s", game, rec.Reason, rec.Detail)
		}
		g.Settle(ctx)
	}
}

// TestBrokenSessionForfeits: a bot that breaks the Session stream
// forfeits by protocol error, with a detail naming what came; the other
// bot's games carry on.
func TestBrokenSessionForfeits(t *testing.T) {
	tests := []struct {
		mode  string
		moves int // good moves of x before its forfeit
		want  string
	}{
		{"unasked", 0, "which was not asked"},
		{"wrongkind", 0, "a done for request"},
		{"outoforder", 1, "out of order"},
		{"close", 0, "closed its session stream while an answer was due"},
		{"refuseplay", 1, "failed to take move"},
	}
	l := newLoader(t)
	ctx := context.Background()
	other := startBot(t, l, "random", nil)
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			bad, err := l.Load(ctx, "badstream", "badstream", map[string]string{"mode": tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			defer bad.Close()
			g := connect4(t, referee.Clock{MoveTime: 10 * time.Second}, bad, other)
			var out referee.Outcome
			for n := 0; ; n++ {
				if out, err = g.GenMove(ctx, engine.X); err != nil {
					t.Fatal(err)
				}
				if !out.Played {
					if n != tc.moves {
						t.Errorf("x forfeited at its move %d, want %d", n+1, tc.moves+1)
					}
					break
				}
				if out, err = g.GenMove(ctx, engine.O); err != nil || !out.Played {
					t.Fatalf("o: %+v %v", out, err)
				}
			}
			rec := g.Record()
			if rec.Forfeit != record.ForfeitProtocolError || rec.Result != "O+" || !strings.Contains(rec.Detail, tc.want) ||
				!strings.Contains(rec.Detail, "x (badstream)") {
				t.Errorf("record: %s %s %q; want a protocol error of x containing %q", rec.Result, rec.Forfeit, rec.Detail, tc.want)
			}
			t.Logf("%s: %s", tc.mode, rec.Detail)
			// The other bot plays on.
			g2 := connect4(t, referee.Clock{MoveTime: 10 * time.Second}, other, nil)
			if out, err := g2.GenMove(ctx, engine.X); err != nil || !out.Played {
				t.Errorf("the other bot after the forfeit: %+v %v", out, err)
			}
		})
	}
}

// TestSearchReportsInTheRecord: a bot's last search report before each
// move is stored with the move; a bot that reports nothing stores nothing.
func TestSearchReportsInTheRecord(t *testing.T) {
	l := newLoader(t)
	ctx := context.Background()
	// Without its opening book: a book move is searched by nobody (no
	// nodes to report).
	g := connect4(t, referee.Clock{MoveTime: 200 * time.Millisecond}, startBot(t, l, "alphabeta", map[string]string{"book": "none"}), startBot(t, l, "random", nil))
	for range 2 {
		for _, c := range []engine.Color{engine.X, engine.O} {
			if out, err := g.GenMove(ctx, c); err != nil || !out.Played {
				t.Fatalf("%s: %+v %v", c, out, err)
			}
		}
	}
	for i, m := range g.Record().Moves {
		switch {
		case m.Color == "x" && (m.Search == nil || m.Search.Depth <= 0 || m.Search.Nodes <= 0):
			t.Errorf("move %d by alphabeta: search %+v, want a report", i+1, m.Search)
		case m.Color == "o" && m.Search != nil:
			t.Errorf("move %d by random: search %+v, want none", i+1, m.Search)
		}
	}
}
