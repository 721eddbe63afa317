package main

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// brain is `kinrow pbrain` driven through real pipes by a test manager.
type brain struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string // stdout lines, closed at EOF
	stderr *syncWriter
	msgs   []string // MESSAGE and DEBUG lines
	exited chan error
}

func startBrain(t *testing.T, args ...string) *brain {
	t.Helper()
	cmd := kinrowIn(shortTempDir(t, "kb"), "", "", append([]string{"pbrain", "--log-level", "debug"}, args...)...)
	b := &brain{t: t, cmd: cmd, lines: make(chan string, 100), stderr: &syncWriter{w: &strings.Builder{}}, exited: make(chan error, 1)}
	cmd.Stderr = b.stderr
	in, out := startPiped(t, cmd)
	b.in = in
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			b.lines <- sc.Text()
		}
		close(b.lines)
		b.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		in.Close()
		waitOrKill(t, cmd, b.exited, "kinrow pbrain")
		checkNoBotProcesses(t)
		if t.Failed() {
			t.Logf("kinrow pbrain stderr:\n%s", b.log())
		}
	})
	return b
}

// log returns what the brain wrote on stderr so far.
func (b *brain) log() string {
	b.stderr.mu.Lock()
	defer b.stderr.mu.Unlock()
	return b.stderr.w.String()
}

// send writes lines as a manager does, ended with CR LF.
func (b *brain) send(lines ...string) {
	b.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(b.in, l+"\r\n"); err != nil {
			b.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// answer returns the next line that is not MESSAGE or DEBUG.
func (b *brain) answer() string {
	b.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-b.lines:
			if !ok {
				b.t.Fatal("the brain closed its output")
			}
			l = strings.TrimRight(l, "\r")
			if strings.HasPrefix(l, "MESSAGE ") || strings.HasPrefix(l, "DEBUG ") {
				b.msgs = append(b.msgs, l)
				continue
			}
			return l
		case <-timeout:
			b.t.Fatal("no answer within 20 s")
		}
	}
}

// expect sends a command and checks the answer contains want.
func (b *brain) expect(cmd, want string) string {
	b.t.Helper()
	b.send(cmd)
	got := b.answer()
	if !strings.Contains(got, want) {
		b.t.Fatalf("%s: answer %q, want %q in it", cmd, got, want)
	}
	return got
}

// end sends END and checks the brain is gone within a second.
func (b *brain) end() {
	b.t.Helper()
	start := time.Now()
	b.send("END")
	select {
	case err := <-b.exited:
		b.exited <- err
		if err != nil {
			b.t.Errorf("exit after END: %v", err)
		}
	case <-time.After(time.Second):
		b.t.Fatalf("the brain still runs a second after END")
	}
	if took := time.Since(start); took > time.Second {
		b.t.Errorf("END took %v", took)
	}
	checkNoBotProcesses(b.t)
}

// board is the test manager's own board: it checks every answer.
type board map[gomocup.Point]bool

// move reads the brain's move and checks it is a free point of a w x h board.
func (bd board) move(t *testing.T, b *brain, w, h int) gomocup.Point {
	t.Helper()
	got := b.answer()
	p, err := gomocup.ParsePoint(got)
	if err != nil {
		t.Fatalf("answer %q is not a move: %v", got, err)
	}
	if p.X >= w || p.Y >= h || bd[p] {
		t.Fatalf("answer %s is off the board or occupied", p)
	}
	bd[p] = true
	return p
}

func TestPbrainProtocolExamples(t *testing.T) {
	b := startBrain(t, "--bot", "random", "--bot-opt", "seed=7")
	b.expect("ABOUT", `name="kinrow-random"`)
	b.expect("START 20", "OK")
	b.send("INFO timeout_turn 1000", "INFO timeout_match 100000", "INFO max_memory 83886080", "INFO game_type 1", "INFO rule 0", "INFO folder /tmp")
	bd := board{}
	b.send("BEGIN")
	bd.move(t, b, 20, 20)
	for _, p := range []gomocup.Point{{X: 10, Y: 10}, {X: 0, Y: 0}, {X: 19, Y: 19}} {
		if bd[p] {
			continue
		}
		bd[p] = true
		b.send("TURN " + p.String())
		bd.move(t, b, 20, 20)
	}
	// Malformed lines: UNKNOWN or ERROR, and the brain goes on.
	b.expect("HELLO", "UNKNOWN")
	b.expect("TURN x,y", "ERROR")
	b.expect("START", "ERROR")
	b.expect("\x00\xff junk", "UNKNOWN")
	b.expect("TURN 20,3", "ERROR")
	// BOARD with its three field values.
	b.send("BOARD", "10,10,1", "10,11,2", "11,11,3", "DONE")
	if got := b.answer(); !strings.HasPrefix(got, "ERROR") || !strings.Contains(got, "field 3") {
		t.Fatalf("BOARD with field 3: %q", got)
	}
	b.send("BOARD", "10,10,1", "10,11,2", "11,11,1", "9,9,2", "DONE")
	bd = board{{X: 10, Y: 10}: true, {X: 10, Y: 11}: true, {X: 11, Y: 11}: true, {X: 9, Y: 9}: true}
	last := bd.move(t, b, 20, 20)
	// TAKEBACK: the last moves in reverse order.
	b.expect("TAKEBACK "+last.String(), "OK")
	b.expect("TAKEBACK 9,9", "OK")
	b.expect("TAKEBACK 9,9", "ERROR")
	delete(bd, last)
	delete(bd, gomocup.Point{X: 9, Y: 9})
	bd[gomocup.Point{X: 9, Y: 9}] = true
	b.send("TURN 9,9")
	bd.move(t, b, 20, 20)
	// RESTART, a rule we do not play, a rectangular board.
	b.expect("RESTART", "OK")
	b.send("INFO rule 2")
	b.expect("BEGIN", "ERROR BEGIN: rule 2 (continuous) is not supported")
	b.send("INFO rule 0")
	b.expect("RECTSTART 30,10", "OK")
	b.send("BEGIN")
	(board{}).move(t, b, 30, 10)
	b.expect("START 4", "ERROR")
	b.end()
}

func TestPbrainHungAndCrashingBots(t *testing.T) {
	for _, bot := range []string{"hang", "crash"} {
		t.Run(bot, func(t *testing.T) {
			b := startBrain(t, "--bot", bot)
			b.expect("START 15", "OK")
			b.send("INFO timeout_turn 1000")
			bd := board{{X: 7, Y: 7}: true}
			for i, turn := range []string{"TURN 7,7", "TURN 0,0"} {
				if i == 1 {
					bd[gomocup.Point{}] = true
				}
				start := time.Now()
				b.send(turn)
				p := bd.move(t, b, 15, 15)
				if took := time.Since(start); took > time.Second {
					t.Errorf("%s answered %s after %v: the limit is 1 s", turn, p, took)
				}
			}
			// INFO time_left caps the move: 10 s left, a twentieth of it.
			b.send("INFO time_left 10000", "TURN 14,14")
			bd[gomocup.Point{X: 14, Y: 14}] = true
			start := time.Now()
			bd.move(t, b, 15, 15)
			if took := time.Since(start); took > 700*time.Millisecond {
				t.Errorf("with 10 s left the move took %v: want at most 500 ms", took)
			}
			if !strings.Contains(b.log(), "the brain answered a move of its own") {
				t.Errorf("the fallback is not logged on stderr")
			}
			b.end()
		})
	}
}

func TestPbrainEndWhileThinking(t *testing.T) {
	b := startBrain(t, "--bot", "alphabeta")
	b.expect("START 20", "OK")
	b.send("INFO timeout_turn 30000", "BEGIN")
	time.Sleep(200 * time.Millisecond)
	b.end()
}

// TestPbrainRules: a manager session per Gomocup rule. Under INFO rule 1
// (exactly five) and 4 (renju) the brain plays, the bot's every move legal
// under the rules as the engine judges them (in renju the brain is black,
// and its moves are never forbidden ones); a bot that does not declare the
// variant is refused at START, naming what it plays.
func TestPbrainRules(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		rules string
	}{{"1", "gomoku-standard"}, {"4", "renju"}} {
		t.Run("rule "+tc.rule, func(t *testing.T) {
			r, _ := engine.ParseRules(tc.rules)
			b := startBrain(t, "--bot", "mics", "--bot-opt", "seed=3")
			b.send("INFO timeout_turn 300")
			b.expect("START 15", "OK")
			b.send("INFO rule " + tc.rule)
			pos := engine.NewPosition(r)
			b.send("BEGIN")
			rng := uint64(11)
			for pos.Ply() < 24 && pos.Result() == engine.Open {
				got := b.answer()
				p, err := gomocup.ParsePoint(got)
				if err != nil {
					t.Fatalf("answer %q is not a move: %v", got, err)
				}
				m, err := gomocup.ToMove(r, p)
				if err == nil {
					err = pos.Apply(m)
				}
				if err != nil {
					t.Fatalf("%s: the brain answered %s: %v\n%s", tc.rules, p, err, pos.Diagram())
				}
				if pos.Result() != engine.Open {
					break
				}
				legal := pos.LegalMoves(nil)
				rng = rng*6364136223846793005 + 1442695040888963407
				reply := legal[(rng>>33)%uint64(len(legal))]
				pos.Play(reply)
				rp, _ := gomocup.FromMove(r, reply)
				if pos.Result() != engine.Open {
					break
				}
				b.send("TURN " + rp.String())
			}
			b.end()
		})
	}
	t.Run("bot without the variant", func(t *testing.T) {
		b := startBrain(t, "--bot", "pndb")
		b.send("INFO rule 4")
		b.expect("START 15", "ERROR START: bot pndb does not play mnk:15x15x5:renju (INFO rule 4): it plays connectx, mnk")
		b.send("INFO rule 0")
		b.expect("START 15", "OK")
		b.end()
	})
}
