package enginebot

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
)

// plies asks the two sides for moves until n plies are played or the game
// ends, and returns the record.
func plies(t *testing.T, g *referee.Game, x, o referee.Player, n int) *record.Record {
	t.Helper()
	ctx := context.Background()
	for c, p := range []referee.Player{x, o} {
		if err := g.Attach(ctx, engine.Color(c), p); err != nil {
			t.Fatal(err)
		}
	}
	for !g.Over() && g.Position().Ply() < n {
		if _, err := g.GenMove(ctx, g.Position().ToMove()); err != nil {
			t.Fatal(err)
		}
	}
	// The players may be attached to another game next: the last move's
	// notification must have reached them first (the game may be open).
	g.Settle(ctx)
	return g.Record()
}

// rapfiLike are the flags that make the test brain take its time as Rapfi
// does: a slow START, a slow INFO max_memory (its hash table), a first
// search past timeout_turn, later ones just under it.
var rapfiLike = []string{"-start-delay", "400ms", "-info-delay", "300ms", "-first-over", "400ms", "-later-under", "5ms"}

// TestRapfiLikeTimingNoForfeit: START and the INFO settings are done under
// the start timeout, not the first move's clock, and a Gomocup engine gets
// the tolerance (a second by default) past timeout_turn, as GomocupJudge
// gives it. Before, the first move forfeited by timeout: INFO max_memory
// was read in the move's time and no tolerance was given.
func TestRapfiLikeTimingNoForfeit(t *testing.T) {
	for _, engineX := range []bool{true, false} {
		m := setup(t, "rapfi", "gomocup", `"mnk:9x9x5"`, rapfiLike...)
		e := start(t, m, "rapfi", nil)
		if e.Facts().Tolerance != DefaultTolerance {
			t.Errorf("Tolerance = %v, want %v", e.Facts().Tolerance, DefaultTolerance)
		}
		g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: 300 * time.Millisecond}})
		x, o := referee.Player(e), referee.Player(&refereetest.Player{Label: "inproc"})
		if !engineX {
			x, o = o, x
		}
		rec := plies(t, g, x, o, 6)
		if rec.Result != "" {
			t.Fatalf("engine as x %t: the game ended: %s %s", engineX, rec.Reason, rec.Detail)
		}
		tr := transcript(t, m)
		// The settings come with the game, ABOUT last, before any move is asked.
		want := "START 9\nINFO timeout_turn 300\nINFO timeout_match 0\nINFO rule 0\nINFO max_memory 0\nABOUT\nINFO time_left 2147483647\n"
		if !strings.HasPrefix(tr, want) {
			t.Errorf("engine as x %t: transcript starts\n%s\nwant\n%s", engineX, tr, want)
		}
		var first time.Duration
		for _, mv := range rec.Moves {
			if (mv.Color == engine.X.String()) == engineX {
				first = time.Duration(mv.MS) * time.Millisecond
				break
			}
		}
		if first < 650*time.Millisecond {
			t.Errorf("engine as x %t: its first move took %v; the brain takes timeout_turn + 400 ms", engineX, first)
		}
	}
}

// TestToleranceIsWhatSavesIt: with the manifest's tolerance = "0s" the same
// brain forfeits its first move by timeout; with the config's tolerance
// (kinrow match --gomocup-tolerance) overriding it, it does not.
func TestToleranceIsWhatSavesIt(t *testing.T) {
	m := setup(t, "strict", "gomocup", `"mnk:9x9x5"`, append([]string{`toml:tolerance = "0s"`}, rapfiLike...)...)
	e := start(t, m, "strict", nil)
	if e.Facts().Tolerance != 0 {
		t.Fatalf("Tolerance = %v, want 0", e.Facts().Tolerance)
	}
	g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: 300 * time.Millisecond}})
	rec := plies(t, g, e, &refereetest.Player{Label: "inproc"}, 6)
	if rec.Forfeit != record.ForfeitTimeout {
		t.Errorf("without tolerance: %s %s %s; want a forfeit by timeout", rec.Reason, rec.Forfeit, rec.Detail)
	}

	m2 := setup(t, "lenient", "gomocup", `"mnk:9x9x5"`, append([]string{`toml:tolerance = "0s"`}, rapfiLike...)...)
	tol := 600 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e2, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m2, Tolerance: &tol})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Kill()
	if e2.Facts().Tolerance != tol {
		t.Fatalf("Tolerance = %v, want %v", e2.Facts().Tolerance, tol)
	}
	g2 := referee.New(m2.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: 300 * time.Millisecond}})
	if rec := plies(t, g2, e2, &refereetest.Player{Label: "inproc"}, 4); rec.Result != "" {
		t.Errorf("with the config's tolerance: the game ended: %s %s", rec.Reason, rec.Detail)
	}
	if !strings.Contains(transcript(t, m2), "INFO timeout_turn 300\n") {
		t.Errorf("a tolerance past the margin tells the whole move time:\n%s", transcript(t, m2))
	}

	// A kinrow-protocol engine has the referee's grace only.
	mk := setup(t, "k", "kinrow", `"connect4"`)
	if ek := start(t, mk, "k", nil); ek.Facts().Tolerance != 0 {
		t.Errorf("kinrow engine: Tolerance = %v, want 0", ek.Facts().Tolerance)
	}
}

// TestRapfiRace: a brain that, like Rapfi, is still "thinking" for a while
// after it wrote its move and drops the command word it reads meanwhile.
// Stopped (SIGSTOP) right after its answer, it was continued with the next
// TURN still "thinking", dropped "TURN" and answered "ERROR Unknown
// command: X,Y", and forfeited by protocol error. The host now stops an
// engine only once its threads sleep.
func TestRapfiRace(t *testing.T) {
	m := setup(t, "racy", "gomocup", `"mnk:9x9x5"`, "-race", "10ms")
	var logs bytes.Buffer
	log := hclog.New(&hclog.LoggerOptions{Output: &syncBuffer{b: &logs}, Level: hclog.Debug})
	e := start(t, m, "racy", log)
	// The engine is stopped once its threads sleep, which on a loaded
	// machine takes a while: the opponent looks for as long as 2 s of its
	// 4 s move.
	g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: 4 * time.Second}})
	states := 0
	o := &refereetest.Player{Label: "inproc", OnGenMove: func() {
		if settledWithin(e.PID(), "T", 2*time.Second) == "T" {
			states++
		}
	}}
	rec := plies(t, g, e, o, 12)
	if rec.Reason == record.ReasonForfeit {
		t.Fatalf("the game ended: %s %s\n%s", rec.Reason, rec.Detail, transcript(t, m))
	}
	if states < 5 {
		t.Errorf("the engine was stopped while its opponent thought %d times in 6 moves", states)
	}
}

// TestLinesAManagerIgnores: junk, ERROR and OK lines before the move are
// logged and skipped, as GomocupJudge skips every line it cannot read as
// coordinates; before, the junk line forfeited by protocol error.
func TestLinesAManagerIgnores(t *testing.T) {
	m := setup(t, "noisy", "gomocup", `"mnk:9x9x5"`, "-noise")
	var logs bytes.Buffer
	log := hclog.New(&hclog.LoggerOptions{Output: &syncBuffer{b: &logs}, Level: hclog.Debug})
	e := start(t, m, "noisy", log)
	g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: time.Second}})
	if rec := plies(t, g, e, &refereetest.Player{Label: "inproc"}, 6); rec.Result != "" {
		t.Fatalf("the game ended: %s %s", rec.Reason, rec.Detail)
	}
	for _, want := range []string{"engine wrote a line that is not a move; ignored", "Searching... depth 12",
		"engine answered something other than a move; ignored", "Unknown command: time_left"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// TestEveryCommandOneWrite: a brain that exits when a read of its input
// ends inside a line plays a game set up with moves (BOARD) and undone
// (BOARD again): every command, a BOARD block included, is one write.
func TestEveryCommandOneWrite(t *testing.T) {
	m := setup(t, "whole", "gomocup", `"mnk:9x9x5"`, "-whole-reads")
	e := start(t, m, "whole", nil)
	r := m.Rules[0]
	g := referee.New(r, referee.Config{Clock: referee.Clock{MoveTime: time.Second}})
	ctx := context.Background()
	for _, mv := range []string{"e5", "e6", "d4"} {
		mm, _ := r.ParseMove(mv)
		if err := g.Play(ctx, g.Position().ToMove(), mm); err != nil {
			t.Fatal(err)
		}
	}
	if rec := plies(t, g, &refereetest.Player{Label: "inproc"}, e, 7); rec.Result != "" {
		t.Fatalf("the game ended: %s %s", rec.Reason, rec.Detail)
	}
	for range 2 { // x's move and the engine's: the engine is to move, a move behind
		if err := g.Undo(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := g.GenMove(ctx, g.Position().ToMove()); err != nil || !out.Played {
		t.Fatalf("after undo: %+v, %v", out, err)
	}
	if tr := transcript(t, m); strings.Count(tr, "BOARD") < 2 {
		t.Errorf("want two BOARD blocks:\n%s", tr)
	}
}

// TestSilentAbout: a brain that does not answer ABOUT plays on after a
// while, and is not asked again at the next game.
func TestSilentAbout(t *testing.T) {
	m := setup(t, "mute", "gomocup", `"mnk:9x9x5"`, "-mute-about")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m, StartTimeout: 400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Kill()
	for range 2 {
		g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: time.Second}})
		if rec := plies(t, g, e, &refereetest.Player{Label: "inproc"}, 4); rec.Result != "" {
			t.Fatalf("the game ended: %s %s", rec.Reason, rec.Detail)
		}
	}
	if tr := transcript(t, m); strings.Count(tr, "ABOUT") != 1 || strings.Count(tr, "RESTART") != 1 {
		t.Errorf("want one ABOUT, then RESTART:\n%s", tr)
	}
}

// TestAbandonedRequest: a move request given up before the answer (the
// caller's context cancelled, the engine not killed) leaves a late move,
// which is no stray answer; the engine is brought up to date with BOARD.
func TestAbandonedRequest(t *testing.T) {
	m := setup(t, "late", "gomocup", `"mnk:9x9x5"`, "-first-over", "200ms", "-later-under", "290ms")
	e := start(t, m, "late", nil)
	r := m.Rules[0]
	ctx := context.Background()
	clock := referee.Clock{MoveTime: 300 * time.Millisecond}
	if err := e.NewGame(ctx, referee.Setup{Rules: r, Color: engine.X, Clock: clock}); err != nil {
		t.Fatal(err)
	}
	req := referee.NewMoveRequest(engine.X, time.Now().Add(300*time.Millisecond), 300*time.Millisecond, [2]time.Duration{})
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := e.GenMove(cctx, req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("GenMove = %v, want DeadlineExceeded", err)
	}
	time.Sleep(600 * time.Millisecond) // the late move comes
	mv, err := e.GenMove(ctx, req)
	if err != nil {
		t.Fatalf("GenMove after an abandoned request: %v", err)
	}
	if _, err := r.ParseMove(mv.Move); err != nil {
		t.Fatalf("move %q: %v", mv.Move, err)
	}
	if tr := transcript(t, m); !strings.HasSuffix(tr, "BOARD | DONE\n") {
		t.Errorf("want an empty BOARD after the abandoned BEGIN:\n%s", tr)
	}
}
