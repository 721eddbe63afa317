package referee_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
)

// Each move records the CPU its player used since its previous move.
func TestMoveRecordsCPU(t *testing.T) {
	ctx := context.Background()
	x := &refereetest.Player{Label: "x", Answer: refereetest.FirstLegal, Accounted: true, CPUPerMove: 30 * time.Millisecond}
	o := &refereetest.Player{Label: "o", Answer: refereetest.FirstLegal}
	g := attach(t, referee.Config{}, x, o)
	for i := 0; i < 4; i++ {
		c := []engine.Color{engine.X, engine.O}[i%2]
		if out, err := g.GenMove(ctx, c); err != nil || !out.Played {
			t.Fatalf("GenMove %v = %+v, %v", c, out, err)
		}
	}
	for i, m := range g.Record().Moves {
		want := int64(0)
		if i%2 == 0 {
			want = 30
		}
		if m.CPUMS != want {
			t.Errorf("move %d (%s): cpu_ms %d, want %d", i+1, m.Color, m.CPUMS, want)
		}
	}
}

// A player's first move records only this game's CPU: not what its
// processes used in earlier games (a match keeps bots across games; a run
// recorded 94,317 ms for a 49 ms first move), whether it joins the game
// (Attach) or the game restarts under it.
func TestFirstMoveCPUIsThisGames(t *testing.T) {
	ctx := context.Background()
	x := &refereetest.Player{Label: "x", Answer: refereetest.FirstLegal, Accounted: true, CPUPerMove: 30 * time.Millisecond, NewGameCPU: 90 * time.Second}
	o := &refereetest.Player{Label: "o", Answer: refereetest.FirstLegal}
	g := attach(t, referee.Config{}, x, o)
	for game := 1; game <= 2; game++ {
		if out, err := g.GenMove(ctx, engine.X); err != nil || !out.Played {
			t.Fatalf("game %d: GenMove = %+v, %v", game, out, err)
		}
		if got := g.Record().Moves[0].CPUMS; got != 30 {
			t.Errorf("game %d: first move's cpu_ms %d, want 30 (the move's own)", game, got)
		}
		if err := g.Restart(ctx, engine.Connect4()); err != nil {
			t.Fatal(err)
		}
	}
}

// A player killed over its memory cap forfeits for memory, not a crash.
func TestOverMemoryForfeit(t *testing.T) {
	ctx := context.Background()
	fp := &refereetest.Player{Label: "hog"}
	fp.Answer = func(context.Context, *engine.Position) (string, error) {
		fp.Crash()
		return "", referee.ErrDisconnected
	}
	fp.Accounted, fp.OverMemory = true, true
	x := fp
	g := attach(t, referee.Config{}, x, nil)
	if _, err := g.GenMove(ctx, engine.X); err != nil {
		t.Fatal(err)
	}
	if r := g.Record(); r.Forfeit != record.ForfeitMemory || !strings.Contains(r.Detail, "hog") {
		t.Errorf("forfeit %q (%s), want memory", r.Forfeit, r.Detail)
	}
}
