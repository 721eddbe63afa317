package pluginbot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// TestSolveThroughTheContract: solving goes through referee.Player's Solve
// (no wire-level API): a bot that solves answers, and under --bot-suspend
// is suspended again once it answered; a bot that does not solve says
// referee.ErrUnsupported.
func TestSolveThroughTheContract(t *testing.T) {
	freeze := procrun.Detect().Freeze
	// x to move wins at once in column 1.
	req := botapi.SolveRequest{ID: 7, Rules: "connect4", Moves: []string{"1", "2", "1", "2", "1", "2"}}
	tests := []struct {
		bot         string
		unsupported bool
	}{
		{"alphabeta", false},
		{"random", true},
	}
	for _, tc := range tests {
		t.Run(tc.bot, func(t *testing.T) {
			l := loaderWith(t, loaderConfig{Containment: Containment{Suspend: []string{tc.bot}}})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			b, err := l.Start(ctx, tc.bot, tc.bot, nil)
			if err != nil {
				t.Fatal(err)
			}
			r, err := referee.SolveOne(ctx, b, req)
			if tc.unsupported {
				if !errors.Is(err, referee.ErrUnsupported) {
					t.Fatalf("SolveOne = %+v, %v; want ErrUnsupported", r, err)
				}
				return
			}
			if err != nil || r.ID != req.ID || !r.Known || r.Score <= 0 {
				t.Fatalf("SolveOne = %+v, %v; want a known win for x", r, err)
			}
			if !freeze {
				return
			}
			run := b.proc().proc()
			for end := time.Now().Add(10 * time.Second); !run.Suspended(); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("the bot was not suspended 10 s after it answered")
				}
			}
		})
	}
}
