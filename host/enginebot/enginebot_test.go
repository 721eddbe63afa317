package enginebot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
)

// binDir holds the test engines, built once by TestMain.
var binDir string

func TestMain(m *testing.M) {
	testbuild.Main(m, "kinrow-enginebot-", &binDir, func(dir string) error {
		return testbuild.Packages(dir, "./internal/testbots/gomocupbrain", "./internal/testbots/kinrowengine")
	})
}

// setup writes a manifest for one of the test engines into a fresh
// directory (where the engine runs and writes its pid and transcript) and
// loads it.
func setup(t *testing.T, name, protocol, rules string, args ...string) *manifest.Manifest {
	t.Helper()
	dir := t.TempDir()
	exe := "gomocupbrain"
	if protocol == "kinrow" {
		exe = "kinrowengine"
	}
	argv := []string{strconv.Quote(filepath.Join(binDir, exe)), `"-pidfile"`, `"pid"`, `"-transcript"`, `"transcript"`}
	var extra []string
	for _, a := range args {
		if strings.HasPrefix(a, "toml:") {
			extra = append(extra, strings.TrimPrefix(a, "toml:"))
			continue
		}
		argv = append(argv, strconv.Quote(a))
	}
	text := fmt.Sprintf("command = [%s]\nprotocol = %q\nrules = [%s]\n%s\n", strings.Join(argv, ", "), protocol, rules, strings.Join(extra, "\n"))
	path := filepath.Join(dir, name+".engine.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(path, name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// start starts the engine of m; the test kills it at the end and checks
// that its process is gone.
func start(t *testing.T, m *manifest.Manifest, display string, log hclog.Logger) *Engine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m, Display: display, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e.Kill()
		if alive(e.PID()) {
			t.Errorf("engine %s (pid %d) still runs after Kill", display, e.PID())
		}
	})
	return e
}

// state is the process state letter from /proc (R, S, T…), "" if gone; T
// too for a process in a frozen cgroup (how the host suspends where
// cgroups serve).
func state(pid int) string {
	s := testproc.State(pid)
	if s != "" && s != "Z" && procrun.Frozen(pid) {
		return "T"
	}
	return s
}

func alive(pid int) bool { s := state(pid); return s != "" && s != "Z" }

// settled returns the state of pid once it is want, or after 200 ms
// whatever it is (a signal takes effect shortly after it is sent).
func settled(pid int, want string) string { return settledWithin(pid, want, 200*time.Millisecond) }

// settledWithin is settled with a wait of d.
func settledWithin(pid int, want string, d time.Duration) string {
	deadline := time.Now().Add(d)
	for {
		s := state(pid)
		if s == want || time.Now().After(deadline) {
			return s
		}
		time.Sleep(time.Millisecond)
	}
}

func transcript(t *testing.T, m *manifest.Manifest) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.Dir, "transcript"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// play runs a game to its end between x and o (nil: moves sent by the
// controller are not used) and returns the last outcome.
func play(t *testing.T, g *referee.Game, x, o referee.Player) referee.Outcome {
	t.Helper()
	ctx := context.Background()
	for c, p := range []referee.Player{x, o} {
		if err := g.Attach(ctx, engine.Color(c), p); err != nil {
			t.Fatal(err)
		}
	}
	var out referee.Outcome
	for !g.Over() {
		var err error
		out, err = g.GenMove(ctx, g.Position().ToMove())
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func rules(t *testing.T, s string) engine.Rules {
	r, err := engine.ParseRules(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGomocupGame(t *testing.T) {
	mx := setup(t, "bx", "gomocup", `"mnk:9x9x5"`, "toml:[options]\nmax_memory = 1000000")
	mo := setup(t, "bo", "gomocup", `"mnk:9x9x5", "mnk:7x9x5"`)
	var logs bytes.Buffer
	log := hclog.New(&hclog.LoggerOptions{Output: &syncBuffer{b: &logs}, Level: hclog.Debug})
	x, o := start(t, mx, "bx", log), start(t, mo, "bo", log)
	g := referee.New(rules(t, "mnk:9x9x5"), referee.Config{Clock: referee.Clock{MoveTime: 500 * time.Millisecond}})
	play(t, g, x, o)
	rec := g.Record()
	if rec.Reason != record.ReasonWin && rec.Reason != record.ReasonDraw {
		t.Fatalf("game ended by %s: %s", rec.Reason, rec.Detail)
	}
	tx, to := transcript(t, mx), transcript(t, mo)
	for _, want := range []string{"START 9\n", "INFO timeout_turn 500\n", "INFO timeout_match 0\n", "INFO rule 0\n", "INFO max_memory 1000000\n", "BEGIN\n", "TURN "} {
		if !strings.Contains(tx, want) {
			t.Errorf("x's transcript lacks %q:\n%s", want, tx)
		}
	}
	if strings.Contains(tx, "INFO max_memory 0\n") || !strings.Contains(to, "INFO rule 0\nINFO max_memory 0\n") {
		t.Errorf("max_memory: x's option, else 0:\n%s\n%s", tx, to)
	}
	if strings.Contains(tx, "BOARD") || !strings.HasPrefix(strings.SplitAfter(to, "INFO max_memory 0\n")[1], "ABOUT\nINFO time_left 2147483647\nTURN ") {
		t.Errorf("o's transcript should go on with TURN, no BOARD:\n%s", to)
	}
	// The same engines play a second game on a rectangular board: O gets
	// RECTSTART, and both games' moves were in notation the referee took.
	g2 := referee.New(rules(t, "mnk:7x9x5"), referee.Config{})
	if err := g2.Attach(context.Background(), engine.O, o); err != nil {
		t.Fatal(err)
	}
	if err := g2.Attach(context.Background(), engine.X, x); err == nil || !strings.Contains(err.Error(), "does not play mnk:7x9x5: it plays mnk:9x9x5") {
		t.Errorf("x attached to rules it does not list: %v", err)
	}
	if !strings.Contains(transcript(t, mo), "RECTSTART 9,7\n") {
		t.Errorf("o was not sent RECTSTART 9,7:\n%s", transcript(t, mo))
	}
	o.Close()
	if alive(o.PID()) || !strings.HasSuffix(transcript(t, mo), "END\n") {
		t.Errorf("Close: alive %v, transcript ends %q", alive(o.PID()), tx[max(0, len(tx)-20):])
	}
	for _, want := range []string{"gomocupbrain: ready", "engine message", "thinking about move 1", "engine debug"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func TestMisbehavingEnginesForfeit(t *testing.T) {
	tests := []struct {
		protocol, mode string
		after          int
		want           record.Forfeit
		detail         string
	}{
		{"gomocup", "silent", 1, record.ForfeitTimeout, "no answer; it stalled"},
		{"gomocup", "slow", 0, record.ForfeitTimeout, "no answer; it stalled"},
		// Lines that are not moves are skipped while a move is awaited, as
		// Gomocup's managers do: a brain that writes nothing else stalls.
		{"gomocup", "junk", 1, record.ForfeitTimeout, "no answer; it stalled"},
		{"gomocup", "error", 0, record.ForfeitTimeout, "no answer; it stalled"},
		{"gomocup", "huge", 1, record.ForfeitProtocolError, "engine wrote a line longer than 65536 bytes instead of a move"},
		{"gomocup", "flood", 1, record.ForfeitProtocolError, "engine flooded its standard output: "},
		{"gomocup", "stray", 1, record.ForfeitProtocolError, `engine wrote a move nobody asked for`},
		{"gomocup", "illegal", 1, record.ForfeitIllegalMove, `unparsable move: invalid move "9,0"`},
		{"gomocup", "occupied", 1, record.ForfeitIllegalMove, "answered an illegal move"},
		{"gomocup", "crash", 1, record.ForfeitCrash, "crashed: the engine process exited (exit status 3)"},
		{"kinrow", "silent", 1, record.ForfeitTimeout, "no answer; it stalled"},
		{"kinrow", "junk", 0, record.ForfeitProtocolError, "malformed response"},
		{"kinrow", "refuse", 1, record.ForfeitProtocolError, "engine refused genmove x: ? I do not want to"},
		{"kinrow", "illegal", 0, record.ForfeitIllegalMove, "column 999 outside the board"},
		{"kinrow", "crash", 1, record.ForfeitCrash, "crashed: the engine process exited (exit status 3)"},
		{"kinrow", "stray", 1, record.ForfeitProtocolError, "engine wrote an answer nobody asked for"},
		{"kinrow", "huge", 1, record.ForfeitProtocolError, "line too long"},
		{"kinrow", "long", 1, record.ForfeitProtocolError, "response too long: the answer has 1843231 bytes (limit 65536)"},
		{"kinrow", "wordy", 1, record.ForfeitProtocolError, "engine answered 1000 bytes on 1 lines to genmove: not a move (at most one line of 256 bytes)"},
	}
	var wg sync.WaitGroup
	for _, tc := range tests {
		name := tc.protocol + "-" + tc.mode
		r := `"mnk:9x9x5"`
		if tc.protocol == "kinrow" {
			r = `"connect4"`
		}
		m := setup(t, name, tc.protocol, r, "-mode", tc.mode, "-after", strconv.Itoa(tc.after))
		e := start(t, m, name, nil)
		wg.Add(1)
		go func() { // the cases wait on deadlines: run them side by side
			defer wg.Done()
			g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: time.Second}, Grace: 50 * time.Millisecond})
			ctx := context.Background()
			if err := g.Attach(ctx, engine.X, e); err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			if err := g.Attach(ctx, engine.O, &refereetest.Player{Label: "inproc"}); err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			var out referee.Outcome
			for !g.Over() {
				var err error
				if out, err = g.GenMove(ctx, g.Position().ToMove()); err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
			}
			if out.Forfeit != tc.want || !strings.Contains(out.Detail, tc.detail) {
				t.Errorf("%s: forfeit %q %q; want %q containing %q", name, out.Forfeit, out.Detail, tc.want, tc.detail)
			}
			if tc.want != record.ForfeitIllegalMove && alive(e.PID()) {
				t.Errorf("%s: still runs after forfeiting by %s", name, out.Forfeit)
			}
		}()
	}
	wg.Wait()
}

func TestSuspendWhileTheOpponentThinks(t *testing.T) {
	for _, suspend := range []bool{true, false} {
		m := setup(t, "s", "gomocup", `"mnk:9x9x5"`, fmt.Sprintf("toml:suspend = %t", suspend))
		e := start(t, m, "s", nil)
		var states []string
		o := &refereetest.Player{Label: "inproc", OnGenMove: func() {
			want := "T"
			if !suspend {
				want = "S" // asleep, reading its input
			}
			states = append(states, settled(e.PID(), want))
		}}
		g := referee.New(m.Rules[0], referee.Config{Clock: referee.Clock{MoveTime: time.Second}})
		play(t, g, e, o)
		if len(states) < 5 {
			t.Fatalf("suspend=%t: only %d moves", suspend, len(states))
		}
		for i, s := range states {
			if (s == "T") != suspend {
				t.Errorf("suspend=%t: the engine's state was %q while its opponent thought (move %d)", suspend, s, i+1)
			}
		}
		if suspend {
			// Close continues a stopped engine so it can take END.
			start := time.Now()
			e.Close()
			if took := time.Since(start); took > 900*time.Millisecond || alive(e.PID()) || !strings.HasSuffix(transcript(t, m), "END\n") {
				t.Errorf("Close of a suspended engine took %v (alive %v); transcript ends %q", took, alive(e.PID()), transcript(t, m))
			}
		}
	}
}

func TestKillAndCloseAreBounded(t *testing.T) {
	// A brain that ignores END: Close waits a second, then kills it.
	m := setup(t, "deaf", "gomocup", `"mnk:9x9x5"`, "-ignore-end")
	e := start(t, m, "deaf", nil)
	g := referee.New(m.Rules[0], referee.Config{})
	if err := g.Attach(context.Background(), engine.O, e); err != nil {
		t.Fatal(err)
	}
	if settled(e.PID(), "T") != "T" {
		t.Errorf("state after START: %q; want T (suspended)", state(e.PID()))
	}
	begin := time.Now()
	e.Close()
	if took := time.Since(begin); took < quitTimeout || took > quitTimeout+time.Second || alive(e.PID()) {
		t.Errorf("Close of a brain ignoring END took %v, alive %v", took, alive(e.PID()))
	}
	if f := e.Facts(); !f.Exited || f.How != "killed by the host" {
		t.Errorf("Facts = %+v, want killed by the host", f)
	}
	// A suspended engine dies of Kill at once.
	m2 := setup(t, "stopped", "gomocup", `"mnk:9x9x5"`)
	e2 := start(t, m2, "stopped", nil)
	if err := g.Attach(context.Background(), engine.X, e2); err != nil {
		t.Fatal(err)
	}
	begin = time.Now()
	e2.Kill()
	if took := time.Since(begin); took > 500*time.Millisecond || alive(e2.PID()) {
		t.Errorf("Kill of a suspended engine took %v, alive %v", took, alive(e2.PID()))
	}
	e2.Kill()
	e2.Close() // no-ops
}

func TestBoardAfterSetupAndUndo(t *testing.T) {
	m := setup(t, "b", "gomocup", `"mnk:9x9x5"`)
	e := start(t, m, "b", nil)
	r := m.Rules[0]
	g := referee.New(r, referee.Config{})
	ctx := context.Background()
	for _, mv := range []string{"e5", "e6"} { // x, then o: x (the engine) to move
		mm, _ := r.ParseMove(mv)
		if err := g.Play(ctx, g.Position().ToMove(), mm); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Attach(ctx, engine.X, e); err != nil {
		t.Fatal(err)
	}
	if out, err := g.GenMove(ctx, engine.X); err != nil || !out.Played {
		t.Fatalf("genmove: %+v, %v", out, err)
	}
	// e5 is 4,4 (own), e6 is 4,3 (the opponent's): Gomocup's Y counts from the top.
	if tr := transcript(t, m); !strings.Contains(tr, "BOARD | 4,4,1 | 4,3,2 | DONE") {
		t.Errorf("no BOARD with the set-up stones:\n%s", tr)
	}
	for range 3 { // x's move, o's e6, x's e5: back to an empty board, x to move
		if err := g.Undo(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.GenMove(ctx, engine.X); err != nil {
		t.Fatal(err)
	}
	if tr := transcript(t, m); !strings.HasSuffix(tr, "BOARD | DONE\n") {
		t.Errorf("after undoing every move, want an empty BOARD:\n%s", tr)
	}
}

func TestStartFailures(t *testing.T) {
	ctx := context.Background()
	// A square-only brain refuses a rectangular board.
	m := setup(t, "sq", "gomocup", `"mnk:7x9x5"`, "-square")
	e := start(t, m, "sq", nil)
	g := referee.New(m.Rules[0], referee.Config{})
	if err := g.Attach(ctx, engine.X, e); err == nil || !strings.Contains(err.Error(), "UNKNOWN to RECTSTART 9,7") || !strings.Contains(err.Error(), "square boards only") {
		t.Errorf("RECTSTART refused: %v", err)
	}
	// A Gomocup brain is no kinrow engine.
	m2 := setup(t, "notkinrow", "kinrow", `"connect4"`)
	m2.Command[0] = filepath.Join(binDir, "gomocupbrain")
	if _, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m2}); err == nil || !strings.Contains(err.Error(), "does not speak the kinrow protocol") {
		t.Errorf("gomocup brain as a kinrow engine: %v", err)
	}
	// Options are checked against the protocol at load time.
	if _, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m, Options: map[string]string{"time_left": "5"}}); err == nil || !strings.Contains(err.Error(), "the host sets INFO time_left itself") {
		t.Errorf("reserved option: %v", err)
	}
	// A program that exits at once: the game is refused, saying how it exited.
	m4, err := manifest.Parse([]byte("command = [\"sh\", \"-c\", \"exit 5\"]\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]"), "dies", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e4 := start(t, m4, "dies", nil)
	if err := referee.New(m4.Rules[0], referee.Config{}).Attach(ctx, engine.X, e4); !errors.Is(err, referee.ErrDisconnected) || !strings.Contains(err.Error(), "exit status 5") {
		t.Errorf("an engine that exits at START: %v", err)
	}
	// A program that is gone.
	m3 := setup(t, "gone", "gomocup", `"gomoku"`)
	m3.Command[0] = filepath.Join(m3.Dir, "nosuch")
	if _, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m3}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing program: %v", err)
	}
}

func TestKinrowEngineGame(t *testing.T) {
	m := setup(t, "k", "kinrow", `"connect4", "tictactoe"`, "toml:[options]\nlevel = \"very hard\"")
	e := start(t, m, "k", nil)
	g := referee.New(engine.Connect4(), referee.Config{Clock: referee.Clock{MoveTime: 500 * time.Millisecond}})
	play(t, g, &refereetest.Player{Label: "inproc"}, e)
	if r := g.Record().Reason; r != record.ReasonWin && r != record.ReasonDraw {
		t.Fatalf("game ended by %s: %s", r, g.Record().Detail)
	}
	tr := transcript(t, m)
	for _, want := range []string{"protocol_version\nrules connectx:6x7x4\nkinrow-option level very hard\nkinrow-movetime 450\nkinrow-side o\n", "play x 1\n", "genmove o\n"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript lacks %q:\n%s", want, tr)
		}
	}
	if err := g.Undo(context.Background()); err != nil {
		t.Fatal(err)
	}
	g.Settle(context.Background()) // the referee tells players in the background
	if !strings.HasSuffix(transcript(t, m), "undo\n") {
		t.Errorf("undo not sent:\n%s", transcript(t, m))
	}
	e.Close()
	if alive(e.PID()) || !strings.HasSuffix(transcript(t, m), "quit\n") {
		t.Errorf("Close: alive %v, transcript %q", alive(e.PID()), transcript(t, m))
	}
}

func TestInfo(t *testing.T) {
	m, err := manifest.Parse([]byte(`command = ["x"]
protocol = "kinrow"
rules = ["connect4", "mnk:3x12x3", "connectx:8x8x4"]
strength = 7
[options]
b = 2
a = "x"`), "eng", "/d")
	if err != nil {
		t.Fatal(err)
	}
	info := Info(m)
	if info.Name != "eng" || info.Strength != 7 || strings.Join(info.Kinds, ",") != "connectx,mnk" || info.MaxRows != 8 || info.MaxCols != 12 ||
		len(info.Options) != 2 || info.Options[0].Name != "a" || info.Options[1].Default != "2" {
		t.Errorf("Info = %+v", info)
	}
}

func TestNoLeaks(t *testing.T) {
	ctx := context.Background()
	mg := setup(t, "g", "gomocup", `"mnk:9x9x5"`)
	mk := setup(t, "k", "kinrow", `"connect4"`)
	// An engine that forks a long-lived child into its process group.
	mf, err := manifest.Parse([]byte(`command = ["sh", "-c", "sleep 300 & echo $! > child; exec cat >/dev/null"]
protocol = "gomocup"
rules = ["gomoku"]`), "forker", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cycle := func(close bool) {
		for _, m := range []*manifest.Manifest{mg, mk} {
			e, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m})
			if err != nil {
				t.Fatal(err)
			}
			g := referee.New(m.Rules[0], referee.Config{})
			if err := g.Attach(ctx, engine.X, e); err != nil {
				t.Fatal(err)
			}
			if out, err := g.GenMove(ctx, engine.X); err != nil || !out.Played {
				t.Fatalf("%s: %+v, %v", m.Name, out, err)
			}
			if close {
				e.Close()
			} else {
				e.Kill()
			}
		}
	}
	settle := func() (int, int) {
		time.Sleep(100 * time.Millisecond)
		runtime.GC()
		fds, _ := os.ReadDir("/proc/self/fd")
		return runtime.NumGoroutine(), len(fds)
	}
	cycle(true)
	g0, f0 := settle()
	for i := range 6 {
		cycle(i%2 == 0)
	}
	g1, f1 := settle()
	if g1 > g0+2 || f1 > f0+2 {
		t.Errorf("after 12 engines started and stopped: goroutines %d -> %d, fds %d -> %d", g0, g1, f0, f1)
	}
	e, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	var child int
	for i := 0; i < 200 && child == 0; i++ {
		b, _ := os.ReadFile(filepath.Join(mf.Dir, "child"))
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(5 * time.Millisecond)
	}
	if !alive(child) {
		t.Fatalf("the forked child %d is not running", child)
	}
	e.Close()
	if settled(child, "") != "" && alive(child) {
		t.Errorf("the engine's child %d survived Close", child)
	}
}

// A process that never reads its input cannot block the host: writes stop
// at their deadline once the pipe is full.
func TestWriteDeadline(t *testing.T) {
	p, err := startProcess(context.Background(), []string{"sleep", "30"}, t.TempDir(), nil, procrun.Config{}, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer p.kill(time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	err = p.write(ctx, make([]byte, 4<<20))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(begin) > time.Second {
		t.Errorf("write to a full pipe: %v after %v; want a deadline error at 100 ms", err, time.Since(begin))
	}
}

// TestGomocupRules: the driver sends the INFO rule of the game it referees
// (1 for standard gomoku, 4 for renju), and a brain answering one of
// renju's forbidden moves as black forfeits with reason forbidden.
func TestGomocupRules(t *testing.T) {
	for _, tc := range []struct {
		rules, info string
	}{{"gomoku-standard", "INFO rule 1\n"}, {"renju", "INFO rule 4\n"}} {
		t.Run(tc.rules, func(t *testing.T) {
			m := setup(t, "b", "gomocup", strconv.Quote(tc.rules), "-mode", "forbidden", "-seed", "1")
			x := start(t, m, "b", hclog.NewNullLogger())
			r := rules(t, tc.rules)
			g := referee.New(r, referee.Config{Clock: referee.Clock{MoveTime: 2 * time.Second}})
			ctx := context.Background()
			for _, s := range []string{"f8", "a1", "g8", "c1", "h9", "e1", "h10", "a15"} {
				mv, _ := r.ParseMove(s)
				if err := g.Play(ctx, g.Position().ToMove(), mv); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.Attach(ctx, engine.X, x); err != nil {
				t.Fatal(err)
			}
			out, err := g.GenMove(ctx, engine.X)
			if err != nil {
				t.Fatal(err)
			}
			if tr := transcript(t, m); !strings.Contains(tr, tc.info) {
				t.Errorf("transcript lacks %q:\n%s", tc.info, tr)
			}
			if tc.rules == "renju" {
				if out.Played || out.Forfeit != record.ForfeitForbidden || !strings.Contains(out.Detail, "forbidden by the rules (renju)") {
					t.Errorf("outcome %+v; want a forfeit for a forbidden move", out)
				}
			} else if !out.Played {
				t.Errorf("standard gomoku: outcome %+v; want a move (no move is forbidden)", out)
			}
		})
	}
}

// An engine under a memory cap is told it with INFO max_memory, as
// Gomocup's managers tell a brain theirs; the cap holds it (its cgroup
// where one can be made).
func TestGomocupToldItsMemoryCap(t *testing.T) {
	m := setup(t, "capped", "gomocup", `"mnk:9x9x5"`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := Start(ctx, Config{Sandbox: procrun.SandboxOff, Manifest: m, Display: "capped", Memory: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Kill()
	g := referee.New(rules(t, "mnk:9x9x5"), referee.Config{Clock: referee.Clock{MoveTime: 500 * time.Millisecond}})
	if err := g.Attach(ctx, engine.X, e); err != nil {
		t.Fatal(err)
	}
	if out, err := g.GenMove(ctx, engine.X); err != nil || !out.Played {
		t.Fatalf("GenMove = %+v, %v", out, err)
	}
	if tx := transcript(t, m); !strings.Contains(tx, "INFO max_memory 268435456\n") {
		t.Errorf("the transcript lacks INFO max_memory 268435456:\n%s", tx)
	}
	if e.Facts().OverMemory {
		t.Error("OverMemory for an engine well under its cap")
	}
}
