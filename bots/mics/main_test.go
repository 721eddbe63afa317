package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// TestBadOptions: an unknown option or a value out of range is refused
// with the option's name and its range.
func TestBadOptions(t *testing.T) {
	api := sdk.Adapt(bot{}, nil)
	tests := []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"width": "3"}, "unknown option width: accepted are branching, depth, seed"},
		{map[string]string{"branching": "0"}, "option branching=0 out of range 1..64"},
		{map[string]string{"branching": "65"}, "option branching=65 out of range 1..64"},
		{map[string]string{"depth": "0"}, "option depth=0 out of range 1..64"},
		{map[string]string{"depth": "100"}, "option depth=100 out of range 1..64"},
		{map[string]string{"seed": "x"}, "option seed=x: want an integer"},
	}
	for _, tc := range tests {
		err := api.NewGame(context.Background(), botapi.Game{Rules: "gomoku", Color: "x", Options: tc.opts})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewGame with %v: %v, want %q", tc.opts, err, tc.want)
		}
	}
	if err := api.NewGame(context.Background(), botapi.Game{Rules: "gomoku", Color: "x",
		Options: map[string]string{"branching": "64", "depth": "1", "seed": "-5"}}); err != nil {
		t.Errorf("NewGame with valid options: %v", err)
	}
}

// TestPlaysThroughTheSDK plays a few moves of each kind through the SDK's
// adapter, with a 100 ms deadline per move, following the moves played.
func TestPlaysThroughTheSDK(t *testing.T) {
	for _, rules := range []string{"connect4", "gomoku", "mnk:70x70x10", "connectx:38x58x12"} {
		t.Run(rules, func(t *testing.T) {
			api := sdk.Adapt(bot{}, nil)
			ctx := context.Background()
			tc := botapi.TimeControl{MoveTime: 100 * time.Millisecond}
			if err := api.NewGame(ctx, botapi.Game{Rules: rules, Color: "x", Time: tc,
				Options: map[string]string{"seed": "1"}}); err != nil {
				t.Fatal(err)
			}
			r, _ := engine.ParseRules(rules)
			pos := engine.NewPosition(r)
			for i := 0; i < 6 && pos.Result() == engine.Open; i++ {
				start := time.Now()
				deadline := start.Add(tc.MoveTime)
				var reports int
				text, err := api.GenMove(ctx, botapi.GenMoveRequest{Deadline: deadline, Budget: tc.MoveTime, Play: true},
					func(botapi.Progress) { reports++ })
				if err != nil {
					t.Fatal(err)
				}
				// A bot that ignores its deadline takes seconds; a loaded
				// 2-core machine (other test packages run beside this one)
				// can add hundreds of milliseconds to one that keeps it.
				if took := time.Since(start); took > tc.MoveTime+time.Second {
					t.Errorf("move %d took %v with a %v deadline", i, took, tc.MoveTime)
				}
				m, err := r.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				if err := pos.Apply(m); err != nil {
					t.Fatalf("move %d: %v", i, err)
				}
			}
		})
	}
}
