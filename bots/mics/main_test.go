package main

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
	"github.com/kinrow/kinrow/protocol/sdk/sdktest"
)

// TestBadOptions: an unknown option or a value out of range is refused
// with the option's name and its range.
func TestBadOptions(t *testing.T) {
	api := sdk.Adapt(bot{}, nil)
	sdktest.CheckRefusals(t, api, "gomoku", []sdktest.Refusal{
		{Options: map[string]string{"width": "3"}, Want: "unknown option width: accepted are branching, depth, seed"},
		{Options: map[string]string{"branching": "0"}, Want: "option branching=0 out of range 1..64"},
		{Options: map[string]string{"branching": "65"}, Want: "option branching=65 out of range 1..64"},
		{Options: map[string]string{"depth": "0"}, Want: "option depth=0 out of range 1..64"},
		{Options: map[string]string{"depth": "100"}, Want: "option depth=100 out of range 1..64"},
		{Options: map[string]string{"seed": "x"}, Want: "option seed=x: want an integer"},
	})
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
			sdktest.PlayMoves(t, sdk.Adapt(bot{}, nil), rules, map[string]string{"seed": "1"}, 100*time.Millisecond, 6)
		})
	}
}

// TestKeepsReserve: a move of 3 s on 15x15 ends at the search time the
// shared reserve leaves (sdk.Reserve), not at the deadline less a thin
// margin, which left a starved process past the referee's grace.
func TestKeepsReserve(t *testing.T) {
	sdktest.CheckReserve(t, sdk.Adapt(bot{}, nil), "gomoku", nil, "h8", "j9")
}
