package referee_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
)

// attach attaches players to a new Connect-4 game, failing the test on an
// error.
func attach(t *testing.T, cfg referee.Config, x, o *refereetest.Player) *referee.Game {
	t.Helper()
	g := referee.New(engine.Connect4(), cfg)
	for c, p := range []*refereetest.Player{x, o} {
		if p == nil {
			continue
		}
		if err := g.Attach(context.Background(), engine.Color(c), p); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// blockOnCtx answers once ctx is done, with ctx's error.
func blockOnCtx(ctx context.Context, _ *engine.Position) (string, error) {
	<-ctx.Done()
	return "", fmt.Errorf("rpc error: code = Canceled desc = %w", ctx.Err())
}

// A cancelled caller context is returned to the caller, and is never a
// verdict against a player: no forfeit, no kill, no mark that a later
// request (with a live context) turns into a forfeit.
func TestCancelledContextIsNeverAVerdict(t *testing.T) {
	tests := []struct {
		name    string
		failing bool // the player failed a notification on its own: a verdict awaits it
		// run cancels and uses ctx on g, whose o player is bot.
		run func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error
	}{
		{"cancelled before the controller's move", false, func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error {
			cancel()
			// Under the old referee, Play was told with ctx, failed with
			// Canceled, marked o broken, and the genmove below forfeited
			// it as crashed.
			if err := g.Play(ctx, engine.X, 3); err != nil {
				t.Fatal(err)
			}
			_, err := g.GenMove(ctx, engine.O)
			return err
		}},
		{"cancelled while the bot thinks", false, func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error {
			if err := g.Play(context.Background(), engine.X, 3); err != nil {
				t.Fatal(err)
			}
			bot.Answer = func(c context.Context, pos *engine.Position) (string, error) {
				cancel()
				return blockOnCtx(c, pos)
			}
			_, err := g.GenMove(ctx, engine.O)
			bot.Answer = refereetest.FirstLegal
			return err
		}},
		{"cancelled while the bot takes a notification", false, func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error {
			bot.Set(300*time.Millisecond, nil)
			if err := g.Play(context.Background(), engine.X, 3); err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(20*time.Millisecond, cancel)
			_, err := g.GenMove(ctx, engine.O)
			bot.Set(0, nil)
			return err
		}},
		{"cancelled when the notification failed", true, func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error {
			bot.Set(0, errors.New("rpc error: code = Canceled desc = context canceled"))
			if err := g.Play(context.Background(), engine.X, 3); err != nil {
				t.Fatal(err)
			}
			g.Settle(context.Background())
			bot.Set(0, nil)
			cancel()
			_, err := g.GenMove(ctx, engine.O)
			return err
		}},
		{"cancelled attach", false, func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error {
			cancel()
			return g.Attach(ctx, engine.O, bot)
		}},
		{"cancelled restart", false, func(t *testing.T, g *referee.Game, bot *refereetest.Player, ctx context.Context, cancel context.CancelFunc) error {
			cancel()
			err := g.Restart(ctx, engine.Connect4())
			var refusal *referee.RefusalError
			if errors.As(err, &refusal) {
				t.Errorf("a cancelled restart blamed the player: %v", err)
			}
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bot := &refereetest.Player{Label: "random", Answer: refereetest.FirstLegal}
			g := attach(t, referee.Config{Clock: referee.Clock{MoveTime: time.Second}}, nil, bot)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			err := tc.run(t, g, bot, ctx, cancel)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v; want one wrapping context.Canceled", err)
			}
			if g.Over() || g.Record().Forfeit != "" {
				t.Errorf("a cancelled request ended the game: %s", g.Record().Summary())
			}
			if bot.Killed() {
				t.Errorf("a cancelled request killed the player")
			}
			if tc.failing {
				return
			}
			// The player was healthy: with a live context it plays on.
			if g.Player(engine.O) == nil {
				if err := g.Attach(context.Background(), engine.O, bot); err != nil {
					t.Fatal(err)
				}
			}
			if g.Position().ToMove() == engine.X {
				if err := g.Play(context.Background(), engine.X, 3); err != nil {
					t.Fatal(err)
				}
			}
			out, err := g.GenMove(context.Background(), engine.O)
			if err != nil || !out.Played {
				t.Errorf("the next genmove: %+v, %v (%s)", out, err, g.Record().Summary())
			}
		})
	}
}

// frozen is a player that hangs in every notification, as a SIGSTOPped
// process does; it answers no move in time either.
func frozen(name string) *refereetest.Player {
	return &refereetest.Player{Label: name, Block: true, Answer: blockOnCtx}
}

// With x frozen, the healthy side's genmove returns as soon as its move is
// played (the old referee waited CallTimeout to tell x, then recorded x as
// crashed); x, asked next, forfeits by timeout within its own move time,
// saying it did not take the notification.
func TestOnlyTheGuiltySideWaits(t *testing.T) {
	const callTimeout = 10 * time.Second // what the mover would have waited before
	movetime, grace := 200*time.Millisecond, 50*time.Millisecond
	x, o := frozen("frozen"), &refereetest.Player{Label: "healthy", Answer: refereetest.FirstLegal}
	g := attach(t, referee.Config{Clock: referee.Clock{MoveTime: movetime}, Grace: grace, CallTimeout: callTimeout}, x, o)
	ctx := context.Background()

	start := time.Now()
	if err := g.Play(ctx, engine.X, 3); err != nil { // the controller plays x's move: both are told
		t.Fatal(err)
	}
	out, err := g.GenMove(ctx, engine.O)
	if took := time.Since(start); took > callTimeout/4 {
		t.Errorf("play x + genmove o took %v: the mover waited on its frozen opponent", took)
	}
	if err != nil || !out.Played {
		t.Fatalf("genmove o: %+v, %v", out, err)
	}
	if x.Killed() {
		t.Errorf("x was killed before it was asked to move")
	}

	start = time.Now()
	out, err = g.GenMove(ctx, engine.X)
	took := time.Since(start)
	if err != nil || out.Forfeit != record.ForfeitTimeout {
		t.Fatalf("genmove x: %+v, %v; want a timeout forfeit", out, err)
	}
	if took < movetime || took > callTimeout/4 {
		t.Errorf("x's forfeit came after %v; want its move time (%v) plus the grace", took, movetime)
	}
	for _, want := range []string{"x (frozen) timed out after 200 ms", "did not take the notification of x's move 4", "(1 more waiting)"} {
		if !strings.Contains(out.Detail, want) {
			t.Errorf("detail %q lacks %q", out.Detail, want)
		}
	}
	if !x.Killed() || o.Killed() {
		t.Errorf("killed: x %v, o %v; want x only", x.Killed(), o.Killed())
	}
	rec := g.Record()
	if rec.Result != "O+" || rec.Forfeit != record.ForfeitTimeout || rec.Players.X != "frozen" || *rec.Winner != "healthy" {
		t.Errorf("record %+v", rec)
	}
	xCalls, xOverlapped := x.Calls()
	oCalls, oOverlapped := o.Calls()
	if xOverlapped || oOverlapped {
		t.Errorf("calls overlapped: x %v, o %v", xCalls, oCalls)
	}
}

// A player's calls never overlap and come in the game's order, however slow
// it is to take notifications.
func TestCallsStaySequential(t *testing.T) {
	rules, _ := engine.ParseRules("tictactoe")
	x := &refereetest.Player{Label: "x", Answer: refereetest.FirstLegal, Slow: 5 * time.Millisecond}
	o := &refereetest.Player{Label: "o", Answer: refereetest.FirstLegal, Slow: 5 * time.Millisecond}
	g := referee.New(rules, referee.Config{Clock: referee.Clock{MoveTime: 5 * time.Second}})
	ctx := context.Background()
	for c, p := range []*refereetest.Player{x, o} {
		if err := g.Attach(ctx, engine.Color(c), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Play(ctx, engine.X, 4); err != nil { // b2
		t.Fatal(err)
	}
	if err := g.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		out, err := g.GenMove(ctx, g.Position().ToMove())
		if err != nil || !out.Played {
			t.Fatalf("%+v, %v", out, err)
		}
	}
	if err := g.Restart(ctx, rules); err != nil {
		t.Fatal(err)
	}
	if _, err := g.GenMove(ctx, engine.X); err != nil {
		t.Fatal(err)
	}
	g.Settle(ctx)
	wantX := "newgame play 4 undo genmove play 1 genmove play 3 genmove play 5 genmove newgame genmove"
	wantO := "newgame play 4 undo play 0 genmove play 2 genmove play 4 genmove play 6 newgame play 0"
	for _, tc := range []struct {
		p    *refereetest.Player
		want string
	}{{x, wantX}, {o, wantO}} {
		calls, overlapped := tc.p.Calls()
		if overlapped {
			t.Errorf("%s: calls overlapped", tc.p.Label)
		}
		// The winning move's notification may be dropped by the restart.
		got := strings.Join(calls, " ")
		if got != tc.want && got != strings.Replace(tc.want, "play 6 newgame", "newgame", 1) {
			t.Errorf("%s's calls:\n%s\nwant\n%s", tc.p.Label, got, tc.want)
		}
	}
}

// A notification the player fails is judged when it is next asked to move,
// by what happened: its process is gone (crash), its connection broke
// (crash), it answered an error (protocol error).
func TestFailedNotificationVerdicts(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		exited  bool
		forfeit record.Forfeit
		detail  string
	}{
		{"exited", errors.New("EOF"), true, record.ForfeitCrash, "o (bot) crashed when told x's move 4: exit status 3"},
		{"disconnected", fmt.Errorf("%w: transport is closing", referee.ErrDisconnected), false, record.ForfeitCrash, "o (bot) disconnected when told x's move 4"},
		{"error", errors.New("move 4 is illegal on my board"), false, record.ForfeitProtocolError, "o (bot) failed to take x's move 4: move 4 is illegal on my board"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bot := &refereetest.Player{Label: "bot", Answer: refereetest.FirstLegal, PlayErr: tc.err}
			g := attach(t, referee.Config{}, nil, bot)
			ctx := context.Background()
			if err := g.Play(ctx, engine.X, 3); err != nil {
				t.Fatal(err)
			}
			g.Settle(ctx)
			if tc.exited {
				bot.Crash()
			}
			out, err := g.GenMove(ctx, engine.O)
			if err != nil || out.Forfeit != tc.forfeit || !strings.Contains(out.Detail, tc.detail) {
				t.Errorf("outcome %+v, %v; want %s with %q", out, err, tc.forfeit, tc.detail)
			}
			if g.Record().Result != "X+" || !bot.Killed() {
				t.Errorf("record %s, killed %v", g.Record().Summary(), bot.Killed())
			}
		})
	}
}

// Reading a finished game's record settles the notifications, bounded by
// the side's move time: a frozen loser is killed, never waited on for long.
func TestRecordSettlesAFinishedGame(t *testing.T) {
	rules, _ := engine.ParseRules("tictactoe")
	x, o := &refereetest.Player{Label: "winner", Answer: refereetest.FirstLegal}, frozen("loser")
	g := referee.New(rules, referee.Config{Clock: referee.Clock{MoveTime: 100 * time.Millisecond}, Grace: 50 * time.Millisecond, CallTimeout: 10 * time.Second})
	ctx := context.Background()
	if err := g.Attach(ctx, engine.X, x); err != nil {
		t.Fatal(err)
	}
	for _, m := range []engine.Move{0, 3, 1, 4} { // x: a1 b1, o: a2 b2
		if err := g.Play(ctx, g.Position().ToMove(), m); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Attach(ctx, engine.O, o); err != nil {
		t.Fatal(err)
	}
	out, err := g.GenMove(ctx, engine.X) // c1 wins
	if err != nil || !out.Played || !g.Over() {
		t.Fatalf("%+v, %v", out, err)
	}
	start := time.Now()
	rec := g.Record()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("reading the record took %v", took)
	}
	if !o.Killed() || x.Killed() {
		t.Errorf("killed: loser %v, winner %v; want the loser only", o.Killed(), x.Killed())
	}
	if rec.Result != "X+" || rec.Reason != record.ReasonWin {
		t.Errorf("the result changed: %s", rec.Summary())
	}
}

// A finished game's record keeps the names of the players that played it
// when the front end detaches them (gtpfront drops a forfeiting bot).
func TestRecordKeepsTheNamesOfAFinishedGame(t *testing.T) {
	bot := &refereetest.Player{Label: "hang", Answer: blockOnCtx}
	g := attach(t, referee.Config{Clock: referee.Clock{MoveTime: 50 * time.Millisecond}, Grace: 10 * time.Millisecond}, nil, bot)
	ctx := context.Background()
	if err := g.Play(ctx, engine.X, 3); err != nil {
		t.Fatal(err)
	}
	if out, err := g.GenMove(ctx, engine.O); err != nil || out.Forfeit != record.ForfeitTimeout {
		t.Fatalf("%+v, %v", out, err)
	}
	if err := g.Attach(ctx, engine.O, nil); err != nil {
		t.Fatal(err)
	}
	if p := g.Record().Players; p.O != "hang" || p.X != "controller" || *g.Record().Winner != "controller" {
		t.Errorf("players %+v, winner %s", p, *g.Record().Winner)
	}
	if err := g.Restart(ctx, engine.Connect4()); err != nil {
		t.Fatal(err)
	}
	if p := g.Record().Players; p.O != "controller" {
		t.Errorf("a new game kept the detached player's Label: %+v", p)
	}
}

// Undo takes back a move that decided the game, and refuses to erase a
// verdict that was not a move.
func TestUndoAfterTheEnd(t *testing.T) {
	tests := []struct {
		name string
		end  func(t *testing.T, g *referee.Game)
		ok   bool
		want string
	}{
		{"win", func(t *testing.T, g *referee.Game) {
			for _, m := range []engine.Move{0, 1, 0, 1, 0, 1, 0} {
				if err := g.Play(context.Background(), g.Position().ToMove(), m); err != nil {
					t.Fatal(err)
				}
			}
		}, true, ""},
		{"forfeit", func(t *testing.T, g *referee.Game) {
			bot := &refereetest.Player{Label: "illegal", Answer: func(context.Context, *engine.Position) (string, error) { return "9", nil }}
			if err := g.Attach(context.Background(), engine.X, bot); err != nil {
				t.Fatal(err)
			}
			if out, err := g.GenMove(context.Background(), engine.X); err != nil || out.Forfeit == "" {
				t.Fatalf("%+v %v", out, err)
			}
		}, false, "cannot undo: the game ended by forfeit, not by a move (O+ forfeit: x (illegal) answered"},
		{"resignation", func(t *testing.T, g *referee.Game) {
			if err := g.Resign(engine.X); err != nil {
				t.Fatal(err)
			}
		}, false, "cannot undo: the game ended by resignation"},
		{"adjudication", func(t *testing.T, g *referee.Game) { g.Adjudicate("draw by the move limit") }, false, "cannot undo: the game ended by adjudication"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := referee.New(engine.Connect4(), referee.Config{})
			ctx := context.Background()
			for _, m := range []engine.Move{3, 3} {
				if err := g.Play(ctx, g.Position().ToMove(), m); err != nil {
					t.Fatal(err)
				}
			}
			tc.end(t, g)
			before, summary, plies := g.Position().Hash(), g.Record().Summary(), g.Position().Ply()
			err := g.Undo(ctx)
			if !tc.ok {
				if !errors.Is(err, referee.ErrCannotUndo) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("undo: %v; want %q", err, tc.want)
				}
				if g.Position().Hash() != before || g.Record().Summary() != summary || len(g.Record().Moves) != plies {
					t.Errorf("a refused undo changed the game: %s", g.Record().Summary())
				}
				return
			}
			if err != nil || g.Over() || g.Position().Ply() != plies-1 || len(g.Record().Moves) != plies-1 {
				t.Errorf("undo of the deciding move: %v; %s, %d plies", err, g.Record().Summary(), g.Position().Ply())
			}
		})
	}
	g := referee.New(engine.Connect4(), referee.Config{})
	if err := g.Undo(context.Background()); !errors.Is(err, referee.ErrCannotUndo) || strings.Count(err.Error(), "cannot undo") != 1 {
		t.Errorf("undo on an empty board: %v", err)
	}
}

// Text quoted from a bot is bounded and on one line.
func TestQuote(t *testing.T) {
	long := strings.Repeat("a", 300)
	euro := strings.Repeat("€", 100) // 3 bytes each: 300 bytes
	tests := []struct{ in, want string }{
		{"no idea", "no idea"},
		{"two\nlines\r\x00end", "two lines  end"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{strings.Repeat("a", referee.MaxQuote), strings.Repeat("a", referee.MaxQuote)},
		{long, strings.Repeat("a", referee.MaxQuote) + "… (300 bytes)"},
		{euro, strings.Repeat("€", referee.MaxQuote/3) + "… (300 bytes)"},
	}
	for _, tc := range tests {
		if got := referee.Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%.20q…) = %.40q…; want %.40q…", tc.in, got, tc.want)
		}
	}
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "no idea", "a\nb", "\xff\xfe", strings.Repeat("€", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := referee.Quote(s)
		if !utf8.ValidString(q) || strings.IndexFunc(q, unicode.IsControl) >= 0 {
			t.Fatalf("Quote(%q) = %q: not one line of UTF-8", s, q)
		}
		if len(q) > referee.MaxQuote+len("… (00000000000000000000 bytes)") {
			t.Fatalf("Quote of %d bytes is %d bytes", len(s), len(q))
		}
	})
}

// A bot's error of any size is quoted in the record cut to MaxQuote bytes.
func TestLongErrorIsCut(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	bot := &refereetest.Player{Label: "bot", Answer: func(context.Context, *engine.Position) (string, error) { return "", errors.New(huge) }}
	g := attach(t, referee.Config{}, bot, nil)
	out, err := g.GenMove(context.Background(), engine.X)
	if err != nil || out.Forfeit != record.ForfeitProtocolError {
		t.Fatalf("%+v, %v", out, err)
	}
	if len(out.Detail) > 400 || !strings.HasSuffix(out.Detail, fmt.Sprintf("… (%d bytes)", len(huge))) {
		t.Errorf("detail of %d bytes: %.80q…", len(out.Detail), out.Detail)
	}
}

// Times a clock cannot run are refused, the clock unchanged.
func TestBadTimesAreRefused(t *testing.T) {
	tests := []struct {
		name string
		set  func(g *referee.Game) error
		ok   bool
	}{
		{"clock", func(g *referee.Game) error {
			return g.SetClock(referee.Clock{Main: time.Minute, Byo: time.Second, Stones: 5})
		}, true},
		{"negative main", func(g *referee.Game) error { return g.SetClock(referee.Clock{Main: -time.Second}) }, false},
		{"main past the limit", func(g *referee.Game) error { return g.SetClock(referee.Clock{Main: referee.MaxTime + 1}) }, false},
		{"negative byo-yomi", func(g *referee.Game) error { return g.SetClock(referee.Clock{Byo: -1}) }, false},
		{"negative stones", func(g *referee.Game) error { return g.SetClock(referee.Clock{Byo: time.Second, Stones: -1}) }, false},
		{"too many stones", func(g *referee.Game) error {
			return g.SetClock(referee.Clock{Byo: time.Second, Stones: referee.MaxStones + 1})
		}, false},
		{"negative move time", func(g *referee.Game) error { return g.SetClock(referee.Clock{MoveTime: -time.Millisecond}) }, false},
		{"negative increment", func(g *referee.Game) error { return g.SetClock(referee.Clock{Main: time.Second, Increment: -1}) }, false},
		{"time left", func(g *referee.Game) error { return g.SetTimeLeft(engine.X, 30*time.Second, 0) }, true},
		{"time left at the limit", func(g *referee.Game) error { return g.SetTimeLeft(engine.X, referee.MaxTime, referee.MaxStones) }, true},
		{"negative time left", func(g *referee.Game) error { return g.SetTimeLeft(engine.X, -time.Nanosecond, 0) }, false},
		{"time left past the limit", func(g *referee.Game) error { return g.SetTimeLeft(engine.O, referee.MaxTime+1, 0) }, false},
		{"negative stones left", func(g *referee.Game) error { return g.SetTimeLeft(engine.O, time.Second, -2) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := referee.New(engine.Connect4(), referee.Config{Clock: referee.Clock{MoveTime: 300 * time.Millisecond}})
			before := [2]time.Duration{g.Budget(engine.X), g.Budget(engine.O)}
			err := tc.set(g)
			if tc.ok {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, referee.ErrBadTime) || !strings.Contains(err.Error(), "out of range: from 0 to") {
				t.Errorf("error %v; want referee.ErrBadTime with the range", err)
			}
			if g.Clock() != (referee.Clock{MoveTime: 300 * time.Millisecond}) || before != [2]time.Duration{g.Budget(engine.X), g.Budget(engine.O)} {
				t.Errorf("a refused time changed the clock: %+v", g.Clock())
			}
		})
	}
}

// A new game does not wait on a frozen player longer than its move time:
// it is killed and refuses the game; the healthy side takes it.
func TestRestartWithAFrozenPlayer(t *testing.T) {
	const callTimeout = 10 * time.Second
	x, o := frozen("frozen"), &refereetest.Player{Label: "healthy", Answer: refereetest.FirstLegal}
	g := attach(t, referee.Config{Clock: referee.Clock{MoveTime: 100 * time.Millisecond}, Grace: 50 * time.Millisecond, CallTimeout: callTimeout}, x, o)
	ctx := context.Background()
	if err := g.Play(ctx, engine.X, 3); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := g.Restart(ctx, engine.Connect4())
	if took := time.Since(start); took > callTimeout/4 {
		t.Errorf("the restart took %v", took)
	}
	var refusal *referee.RefusalError
	if !errors.As(err, &refusal) || refusal.Color != engine.X || !x.Killed() {
		t.Errorf("restart: %v; killed %v; want x refusing", err, x.Killed())
	}
	if g.Player(engine.X) != nil || g.Player(engine.O) != o || o.Killed() {
		t.Errorf("players after the restart: x %v, o %v", g.Player(engine.X), g.Player(engine.O))
	}
	if out, err := g.GenMove(ctx, engine.X); err == nil {
		t.Errorf("genmove for the detached x: %+v", out)
	}
	if err := g.Play(ctx, engine.X, 3); err != nil {
		t.Fatal(err)
	}
	if out, err := g.GenMove(ctx, engine.O); err != nil || !out.Played {
		t.Errorf("o after the restart: %+v, %v", out, err)
	}
}
