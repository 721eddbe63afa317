package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
	"github.com/kinrow/kinrow/protocol/sdk/sdktest"
)

// newGame starts a game of rules with options opts on bot a.
func newGame(t *testing.T, a *alphabeta, rules string, opts map[string]string) *player {
	t.Helper()
	r, err := engine.ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	values, err := sdk.OptionSet(a.Info().Options).Parse(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.NewGame(context.Background(), sdk.Game{Rules: r, Values: values})
	if err != nil {
		t.Fatal(err)
	}
	return p.(*player)
}

// TestGamesReuseSearchers: a game under the same rules and options as the
// last reuses its searchers (no new tables to fault in), one under other
// rules or options gets its own, and every game still plays legal moves.
func TestGamesReuseSearchers(t *testing.T) {
	a := newAlphabeta()
	tests := []struct {
		rules string
		opts  map[string]string
		reuse bool
	}{
		{"connect4", map[string]string{"tt": "4"}, false},
		{"connect4", map[string]string{"tt": "4"}, true},
		{"connect4", map[string]string{"tt": "8"}, false},
		{"connectx:9x8x4", map[string]string{"tt": "8"}, false}, // wide
		{"connectx:9x8x4", map[string]string{"tt": "8"}, true},
		{"mnk:7x7x4", map[string]string{"tt": "8"}, false},
	}
	var prev *player
	for i, tc := range tests {
		p := newGame(t, a, tc.rules, tc.opts)
		if prev != nil {
			same := p.s == prev.s && p.exact == prev.exact && p.quick == prev.quick && p.wide == prev.wide
			if same != tc.reuse {
				t.Errorf("game %d (%s %v): searchers reused %v, want %v", i, tc.rules, tc.opts, same, tc.reuse)
			}
		}
		r, _ := engine.ParseRules(tc.rules)
		pos := engine.NewPosition(r)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		m, err := p.GenMove(ctx, pos, func(botapi.Progress) {})
		cancel()
		if err != nil || !pos.Legal(m) {
			t.Errorf("game %d (%s): move %v, %v", i, tc.rules, m, err)
		}
		prev = p
	}
}

// TestSolveThreadsOption: a solve request's threads option reaches the
// bitboard solver, and the scores with one thread and with two agree with
// the known ones.
func TestSolveThreadsOption(t *testing.T) {
	a := newAlphabeta()
	for _, threads := range []string{"1", "2"} {
		for _, tc := range []struct {
			moves string
			score int
		}{
			{"4455", 18},       // Test_L1_R1: an open three next move
			{"32164625", 11},   // Test_L1_R1, line 1
			{"5654767662", 13}, // Test_L1_R1, line 11
		} {
			pos := engine.NewPosition(engine.Connect4())
			for _, ch := range tc.moves {
				pos.Play(engine.Move(ch - '1'))
			}
			req := botapi.SolveRequest{ID: 1, Options: map[string]string{"tt": "8", "threads": threads}}
			reply, err := a.Solve(context.Background(), pos, req)
			if err != nil || !reply.Known || reply.Score != tc.score {
				t.Errorf("threads %s, %s: %+v, %v; want score %d", threads, tc.moves, reply, err, tc.score)
			}
			for _, sv := range a.boards {
				if got := strconv.Itoa(sv.Threads()); got != threads {
					t.Errorf("threads %s: the solver has %s", threads, got)
				}
			}
		}
	}
}

// TestKeepsReserve: a move of 3 s on 15x15 ends at the search time the
// shared reserve leaves (sdk.Reserve), not at the deadline less a thin
// margin, which left a starved process past the referee's grace.
func TestKeepsReserve(t *testing.T) {
	sdktest.CheckReserve(t, sdk.Adapt(newAlphabeta(), nil), "gomoku", nil, "h8", "j9")
}

// TestStarvedMoveSeesTactics: a move whose time is gone before the bot
// starts (a loaded machine: at 50 ms a move the search once got a few
// milliseconds of CPU, reached depth 1 and threw a won game away against
// random) still searches a few plies: on Connect-4 the quick search
// finishes its first minDepth iterations whatever the clock says, so the
// move never lets the opponent make two threats at once.
func TestStarvedMoveSeesTactics(t *testing.T) {
	a := newAlphabeta()
	for _, tc := range []struct {
		moves string // 1-based columns
		ok    string // the moves that do not lose
	}{
		// Random openings (seeded) where the engine-board search, stopped
		// after depth 1, plays a move that lets the opponent win with its
		// second stone: 2, 2, 4 and 3 below.
		{"41521", "367"},
		{"326731131", "145"},
		{"4647117652736", "7"},
		{"26275354626", "4"},
	} {
		p := newGame(t, a, "connect4", map[string]string{"book": "none", "tt": "4"})
		pos := engine.NewPosition(engine.Connect4())
		for _, ch := range tc.moves {
			pos.Play(engine.Move(ch - '1'))
		}
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Millisecond))
		var last botapi.Progress
		m, err := p.GenMove(ctx, pos, func(pr botapi.Progress) { last = pr })
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", tc.moves, err)
		}
		if got := pos.Rules().FormatMove(m); !strings.Contains(tc.ok, got) {
			t.Errorf("after %s the starved bot played %s (depth %d), a loss; the moves that do not lose: %s", tc.moves, got, last.Depth, tc.ok)
		}
	}
}
