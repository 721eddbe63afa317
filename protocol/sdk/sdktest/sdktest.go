package sdktest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// Refusal is a set of options NewGame must refuse, and a text its error
// must contain (the option's name and what is accepted).
type Refusal struct {
	Options map[string]string
	Want    string
}

// CheckRefusals starts a game of rules as x with each refusal's options
// and fails t unless NewGame refuses them with an error containing Want.
func CheckRefusals(t testing.TB, api botapi.Bot, rules string, refusals []Refusal) {
	t.Helper()
	for _, r := range refusals {
		err := api.NewGame(context.Background(), botapi.Game{Rules: rules, Color: "x", Options: r.Options})
		if err == nil || !strings.Contains(err.Error(), r.Want) {
			t.Errorf("NewGame with %v: %v, want %q", r.Options, err, r.Want)
		}
	}
}

// lateBy is how far past its deadline a move may come: a bot that ignores
// its deadline takes seconds; a loaded 2-core machine (other test packages
// run beside this one) can add hundreds of milliseconds to one that keeps
// it.
const lateBy = time.Second

// PlayMoves starts a game of rules as x with options and moveTime a move,
// then asks api for up to n moves, each played (GenMove with Play), until
// the game ends. It fails t on an error, a move the rules refuse, or a
// move answered more than a second after its deadline, and returns the
// position reached.
func PlayMoves(t testing.TB, api botapi.Bot, rules string, options map[string]string, moveTime time.Duration, n int) *engine.Position {
	t.Helper()
	ctx := context.Background()
	r, err := engine.ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	tc := botapi.TimeControl{MoveTime: moveTime}
	if err := api.NewGame(ctx, botapi.Game{Rules: rules, Color: "x", Time: tc, Options: options}); err != nil {
		t.Fatal(err)
	}
	pos := engine.NewPosition(r)
	for i := 0; i < n && pos.Result() == engine.Open; i++ {
		start := time.Now()
		text, err := api.GenMove(ctx, botapi.GenMoveRequest{Deadline: start.Add(moveTime), Budget: moveTime, Play: true},
			func(botapi.Progress) {})
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > moveTime+lateBy {
			t.Errorf("%s move %d took %v with a %v deadline", rules, i, took, moveTime)
		}
		m, err := r.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := pos.Apply(m); err != nil {
			t.Fatalf("%s move %d: %v", rules, i, err)
		}
	}
	return pos
}

// reserveMove is CheckReserve's move time: long enough that the old
// margins (a bot answering at 80% of it and later) and sdk.Reserve (60%)
// lie seconds apart from a loaded machine's scheduling delays.
const reserveMove = 3 * time.Second

// CheckReserve starts a game of rules as x with options and 3 s a move,
// plays the opening moves given (notation), asks api for a move and fails
// t when it came later than the search time sdk.SearchTime leaves plus
// 500 ms: a bot that keeps the reserve every kinrow bot keeps answers at
// 1.8 s, one that searches to its deadline less a margin at 2.4 s or
// later. The position must be one the bot searches to its stop (no
// forced move).
func CheckReserve(t testing.TB, api botapi.Bot, rules string, options map[string]string, opening ...string) {
	t.Helper()
	ctx := context.Background()
	if err := api.NewGame(ctx, botapi.Game{Rules: rules, Color: "x", Time: botapi.TimeControl{MoveTime: reserveMove}, Options: options}); err != nil {
		t.Fatal(err)
	}
	for _, m := range opening {
		if err := api.Play(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if _, err := api.GenMove(ctx, botapi.GenMoveRequest{Deadline: start.Add(reserveMove), Budget: reserveMove}, nil); err != nil {
		t.Fatal(err)
	}
	limit := sdk.SearchTime(reserveMove) + 500*time.Millisecond
	if took := time.Since(start); took > limit {
		t.Errorf("%s: the move took %v of %v; a bot keeping sdk.Reserve answers within %v", rules, took.Round(time.Millisecond), reserveMove, limit)
	}
}
