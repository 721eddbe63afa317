package main

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
	"github.com/kinrow/kinrow/protocol/sdk/sdktest"
)

// TestBadOptions: an unknown option or a value out of range is refused
// with the option's name and its range.
func TestBadOptions(t *testing.T) {
	sdktest.CheckRefusals(t, sdk.Adapt(bot{}, nil), "gomoku", []sdktest.Refusal{
		{Options: map[string]string{"width": "3"}, Want: "unknown option width"},
		{Options: map[string]string{"depth": "0"}, Want: "option depth=0 out of range 1..60"},
		{Options: map[string]string{"tt_bits": "30"}, Want: "option tt_bits=30 out of range 10..26"},
	})
}

// TestPlaysEveryRule plays a few moves of every rule it declares, K = 5
// and another K (handed to MICS), through the SDK's adapter.
func TestPlaysEveryRule(t *testing.T) {
	for _, rules := range []string{"gomoku", "gomoku-standard", "renju", "mnk:7x7x5", "mnk:20x20x5", "mnk:9x9x4", "tictactoe"} {
		t.Run(rules, func(t *testing.T) {
			sdktest.PlayMoves(t, sdk.Adapt(bot{}, nil), rules, map[string]string{"tt_bits": "12"}, 100*time.Millisecond, 6)
		})
	}
}

// TestNeverForfeitsAt50ms plays gomoku against random through kinrow
// match (real processes, the sandbox, the referee's 100 ms grace) at
// 50 ms a move, in every rule, while the test keeps one core busy: the
// bot must lose no game on time (time forfeits counted apart from losses).
func TestNeverForfeitsAt50ms(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real games")
	}
	dir := t.TempDir()
	if err := testbuild.Build(dir); err != nil {
		t.Fatal(err)
	}
	// Load: one goroutine spinning for the whole test.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		x := 0
		for {
			select {
			case <-stop:
				return
			default:
				for i := 0; i < 1e6; i++ {
					x += i
				}
			}
		}
	}()
	for _, rules := range []string{"gomoku", "gomoku-standard", "renju"} {
		out := filepath.Join(dir, strings.ReplaceAll(rules, ":", "_")+".jsonl")
		cmd := exec.Command(filepath.Join(dir, "kinrow"), "match", "--rules", rules, "--bot", "gomoku", "--bot", "random",
			"--games", "4", "--movetime", "50ms", "--random-plies", "2", "--out", out, "--log-level", "warn")
		// The referee's key goes into the test's directory, not the user's.
		cmd.Env = append(os.Environ(), "KINROW_BOT_PATH="+dir, "TMPDIR="+t.TempDir(), "KINROW_CONFIG_DIR="+filepath.Join(dir, "config"))
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kinrow match %s: %v\n%s", rules, err, b)
		}
		timeouts, losses, games := countResults(t, out, "gomoku")
		t.Logf("%s: %d games, %d lost (%d of them on time)", rules, games, losses, timeouts)
		if games != 4 {
			t.Fatalf("%s: %d games recorded, want 4", rules, games)
		}
		if timeouts > 0 {
			t.Errorf("%s: gomoku forfeited %d games on time at 50 ms", rules, timeouts)
		}
		if losses > 0 {
			t.Errorf("%s: gomoku lost %d games to random", rules, losses)
		}
	}
}

// countResults reads a match's records: the games bot lost on time, all
// it lost, and the games.
func countResults(t *testing.T, path, bot string) (timeouts, losses, games int) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := record.ReadLines(path, data, record.Parse)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines.Records {
		g := l.Rec
		games++
		if g.Winner != nil && *g.Winner != bot {
			losses++
			if g.Reason == record.ReasonForfeit && g.Forfeit == record.ForfeitTimeout {
				timeouts++
			}
		}
	}
	return timeouts, losses, games
}

// TestRenjuNoFoulThroughBot plays seeded renju games of the bot against
// itself through its own NewGame and GenMove (the adapter the SDK serves,
// fallback included) at 30 ms a move (no timing is asserted), from random
// openings of 2 to 6 plies near the centre, and checks every black move
// with the engine's judge: never a double three, double four or overline.
func TestRenjuNoFoulThroughBot(t *testing.T) {
	r, err := engine.ParseRules("renju")
	if err != nil {
		t.Fatal(err)
	}
	games := 12
	if testing.Short() {
		games = 2
	}
	rng := rand.New(rand.NewPCG(2027, 27))
	blackMoves := 0
	for g := 0; g < games; g++ {
		pos := engine.NewPosition(r)
		for n := 2 + rng.IntN(5); pos.Ply() < n; {
			m := engine.Move((r.Rows/2-2+rng.IntN(5))*r.Cols + r.Cols/2 - 2 + rng.IntN(5))
			if pos.Legal(m) {
				pos.Play(m)
			}
		}
		vals, err := sdk.OptionSet(bot{}.Info().Options).Parse(nil)
		if err != nil {
			t.Fatal(err)
		}
		game := sdk.Game{Rules: r, Values: vals, Moves: pos.Moves(nil), Time: botapi.TimeControl{MoveTime: 30 * time.Millisecond}}
		var players [2]sdk.Player
		for c := range players {
			if players[c], err = (bot{}).NewGame(context.Background(), game); err != nil {
				t.Fatal(err)
			}
		}
		for pos.Result() == engine.Open {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			m, err := players[pos.ToMove()].GenMove(ctx, pos, func(botapi.Progress) {})
			cancel()
			if err != nil {
				t.Fatalf("game %d: GenMove: %v\n%s", g, err, pos.Diagram())
			}
			if pos.ToMove() == engine.X {
				blackMoves++
				if f := pos.Foul(m); f != engine.NoFoul {
					t.Fatalf("game %d: black played %s, a foul (%v)\n%s", g, r.FormatMove(m), f, pos.Diagram())
				}
			}
			if err := pos.Apply(m); err != nil {
				t.Fatalf("game %d: %v\n%s", g, err, pos.Diagram())
			}
		}
	}
	t.Logf("%d games, %d black moves judged", games, blackMoves)
	if blackMoves == 0 {
		t.Fatal("no black move judged")
	}
}

// TestKeepsReserve: a move of 3 s on 15x15 ends at the search time the
// shared reserve leaves (sdk.Reserve), not at the deadline less a thin
// margin, which left a starved process past the referee's grace.
func TestKeepsReserve(t *testing.T) {
	sdktest.CheckReserve(t, sdk.Adapt(bot{}, nil), "gomoku", nil, "h8", "j9")
}
