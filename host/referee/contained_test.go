package referee

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// containedPlayer is a fakePlayer whose processes the host accounts: each
// GenMove uses cpuPerMove of CPU, and it may say it went over its memory cap.
type containedPlayer struct {
	*fakePlayer
	cpuPerMove time.Duration
	newGameCPU time.Duration
	over       bool

	mu  sync.Mutex
	cpu time.Duration
}

func (c *containedPlayer) GenMove(ctx context.Context, req MoveRequest) (string, error) {
	c.mu.Lock()
	c.cpu += c.cpuPerMove
	c.mu.Unlock()
	return c.fakePlayer.GenMove(ctx, req)
}

// NewGame uses newGameCPU (a process that played other games before, or
// set up its tables).
func (c *containedPlayer) NewGame(ctx context.Context, s Setup) error {
	c.mu.Lock()
	c.cpu += c.newGameCPU
	c.mu.Unlock()
	return c.fakePlayer.NewGame(ctx, s)
}

func (c *containedPlayer) CPUTime() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cpu, true
}

func (c *containedPlayer) OverMemory() bool { return c.over }

// Each move records the CPU its player used since its previous move.
func TestMoveRecordsCPU(t *testing.T) {
	ctx := context.Background()
	x := &containedPlayer{fakePlayer: &fakePlayer{name: "x", answer: firstLegal}, cpuPerMove: 30 * time.Millisecond}
	o := &fakePlayer{name: "o", answer: firstLegal}
	g := New(engine.Connect4(), Config{})
	if err := g.Attach(ctx, engine.X, x); err != nil {
		t.Fatal(err)
	}
	if err := g.Attach(ctx, engine.O, o); err != nil {
		t.Fatal(err)
	}
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
	x := &containedPlayer{fakePlayer: &fakePlayer{name: "x", answer: firstLegal}, cpuPerMove: 30 * time.Millisecond, newGameCPU: 90 * time.Second}
	o := &fakePlayer{name: "o", answer: firstLegal}
	g := New(engine.Connect4(), Config{})
	if err := g.Attach(ctx, engine.X, x); err != nil {
		t.Fatal(err)
	}
	if err := g.Attach(ctx, engine.O, o); err != nil {
		t.Fatal(err)
	}
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
	fp := &fakePlayer{name: "hog"}
	fp.answer = func(context.Context, *engine.Position) (string, error) {
		fp.mu.Lock()
		fp.exited = true
		fp.mu.Unlock()
		return "", ErrDisconnected
	}
	x := &containedPlayer{fakePlayer: fp, over: true}
	g := New(engine.Connect4(), Config{})
	if err := g.Attach(ctx, engine.X, x); err != nil {
		t.Fatal(err)
	}
	if _, err := g.GenMove(ctx, engine.X); err != nil {
		t.Fatal(err)
	}
	if r := g.Record(); r.Forfeit != record.ForfeitMemory || !strings.Contains(r.Detail, "hog") {
		t.Errorf("forfeit %q (%s), want memory", r.Forfeit, r.Detail)
	}
}
