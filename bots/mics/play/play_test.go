package play

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

var (
	_ sdk.Player   = (*Player)(nil)
	_ sdk.Observer = (*Player)(nil)
)

// TestGenMoveFollowsTheGame: moves played and taken back through the
// observer, the player answers a legal move of the position as it stands,
// with progress reported, under a fixed move time and under a game clock.
func TestGenMoveFollowsTheGame(t *testing.T) {
	for _, clock := range []botapi.TimeControl{{MoveTime: 50 * time.Millisecond}, {Main: 5 * time.Second}} {
		pos := testpos.Of(t, "mnk:9x9x4", "")
		s, err := mics.New(pos.Rules(), mics.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		s.Follow(pos)
		p := New(s, clock)
		for i, text := range []string{"e5", "d4", "e4"} {
			m, err := pos.Rules().ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			pos.Play(m)
			p.Played(pos, m)
			if i == 2 {
				pos.Undo()
				p.Undone(pos, m)
			}
		}
		reports := 0
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		m, err := p.GenMove(ctx, pos, func(botapi.Progress) { reports++ })
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !pos.Legal(m) || pos.Ply() != 2 {
			t.Errorf("%+v: move %s at ply %d", clock, pos.Rules().FormatMove(m), pos.Ply())
		}
		if reports == 0 {
			t.Errorf("%+v: no progress reported", clock)
		}
		if m == engine.NoMove {
			t.Errorf("%+v: no move", clock)
		}
	}
}
