package sdktest

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// first is a bot that plays the first legal move and declares info.
type first struct{ info botapi.Info }

func (f first) Info() botapi.Info                                     { return f.info }
func (f first) NewGame(context.Context, sdk.Game) (sdk.Player, error) { return f, nil }

func (first) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	return pos.LegalMoves(nil)[0], nil
}

// adapted returns first, with one option (depth, 1 to 40), behind the
// SDK's adapter.
func adapted() botapi.Bot {
	depth := botapi.Option{Name: "depth", Type: botapi.OptionInt, Default: "4", Min: 1, Max: 40}
	info := botapi.Info{Name: "first", Kinds: []string{"connectx", "mnk"}, MaxRows: 20, MaxCols: 20, Options: []botapi.Option{depth}}
	return sdk.Adapt(first{info}, nil)
}

// TestCheckRefusals: the adapter's refusals of an unknown option and of a
// value out of range pass the check.
func TestCheckRefusals(t *testing.T) {
	CheckRefusals(t, adapted(), "connect4", []Refusal{
		{Options: map[string]string{"width": "3"}, Want: "unknown option width"},
		{Options: map[string]string{"depth": "0"}, Want: "option depth=0 out of range 1..40"},
	})
}

// TestPlayMoves: the moves asked for are played on the position returned,
// and a game that ends stops the loop (n more than the board holds).
func TestPlayMoves(t *testing.T) {
	for _, tc := range []struct {
		rules string
		n     int
	}{
		{"connect4", 5},
		{"connectx:4x4x4", 40},
		{"mnk:3x3x3", 3},
		{"mnk:3x3x3", 20},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			pos := PlayMoves(t, adapted(), tc.rules, map[string]string{"depth": "2"}, 100*time.Millisecond, tc.n)
			over := pos.Result() != engine.Open
			if pos.Rules().Cells() < tc.n && !over {
				t.Errorf("%d plies played and the game still open", pos.Ply())
			}
			if !over && pos.Ply() != tc.n {
				t.Errorf("%d plies played, want %d", pos.Ply(), tc.n)
			}
		})
	}
}
