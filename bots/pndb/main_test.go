package main

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/pndb/pns"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// TestGenMoveKeepsTime plays pndb against random moves on gomoku at 200 ms
// per move: every answer comes in time (the forfeit test in cmd/kinrow
// checks the real deadline under the host).
func TestGenMoveKeepsTime(t *testing.T) {
	r, _ := engine.ParseRules("gomoku")
	s, err := pns.New(r, pns.Options{MemMiB: 256})
	if err != nil {
		t.Fatal(err)
	}
	pl := &player{s: s}
	rng := rand.New(rand.NewPCG(1, 2))
	pos := engine.NewPosition(r)
	var worst time.Duration
	for i := 0; i < 12 && pos.Result() == engine.Open; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		m, err := pl.GenMove(ctx, pos, func(botapi.Progress) {})
		d := time.Since(start)
		cancel()
		if err != nil || !pos.Legal(m) {
			t.Fatalf("move %d: %v %v", i, m, err)
		}
		worst = max(worst, d)
		t.Logf("move %d %s in %v, %+v", i, r.FormatMove(m), d, s.Stats())
		pos.Play(m)
		if pos.Result() != engine.Open {
			break
		}
		legal := pos.LegalMoves(nil)
		pos.Play(legal[rng.IntN(len(legal))])
	}
	// The budget ends at 170 ms; a loaded machine (make test runs packages
	// in parallel) may delay the answer, but never by a stall.
	if worst > 300*time.Millisecond {
		t.Errorf("slowest move %v, over 300ms for a 200ms move", worst)
	}
	t.Logf("slowest move %v", worst)
}
