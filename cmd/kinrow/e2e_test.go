package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/refkey"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
	"github.com/kinrow/kinrow/protocol/gtp"
)

// binDir holds kinrow, the real bots and the misbehaving test bots, built
// once by TestMain (test-only package state).
var binDir string

// testBots are built from internal/testbots; real bots from bots/.
var testBots = []string{"hang", "crash", "illegal", "junk", "junkafter", "late", "sleeper", "forker", "oldproto", "escaper", "hog", "flood", "bigmove", "badaddr", "spinner", "hijack"}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kinrow-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	// The referee's key of every kinrow the tests run: made at first use
	// here, never in the user's config directory.
	os.Setenv(refkey.EnvDir, filepath.Join(dir, "config"))
	err = testbuild.Build(dir, testBots...)
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// host is a running bin/kinrow driven through real pipes.
type host struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	client *gtp.Client
	stderr *strings.Builder
	tmp    string
}

func startHost(t *testing.T, args ...string) *host {
	t.Helper()
	return startHostIn(t, "", func() {}, args...)
}

// startHostIn runs bin/kinrow serve with the bots of botPath ("": those
// beside it); at the end, after its stdin closes, it checks that no bot
// process is left and runs leftover for more checks.
func startHostIn(t *testing.T, botPath string, leftover func(), args ...string) *host {
	t.Helper()
	tmp := shortTempDir(t, "ke")
	cmd := kinrowIn(tmp, botPath, "", append([]string{"--log-level", "debug"}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &syncWriter{w: &stderr}
	in, out := startPiped(t, cmd)
	h := &host{t: t, cmd: cmd, in: in, client: gtp.NewClient(in, out), stderr: &stderr, tmp: tmp}
	t.Cleanup(func() {
		in.Close()
		waitOrKill(t, cmd, waited(cmd), "kinrow")
		checkNoBotProcesses(t)
		leftover()
		if t.Failed() {
			t.Logf("kinrow stderr:\n%s", stderr.String())
		}
	})
	return h
}

// syncWriter serialises writes to a builder (exec copies stderr in a goroutine).
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// do sends a command and returns the answer; it fails the test on a
// transport error, not on a `?` answer.
func (h *host) do(line string) gtp.Response {
	h.t.Helper()
	f := strings.Fields(line)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := h.client.Do(ctx, f[0], f[1:]...)
	if err != nil {
		h.t.Fatalf("%s: %v", line, err)
	}
	return r
}

// ok sends a command that must succeed and returns its text.
func (h *host) ok(line string) string {
	h.t.Helper()
	r := h.do(line)
	if !r.OK {
		h.t.Fatalf("%s: ? %s", line, r.Text)
	}
	return r.Text
}

// fail sends a command that must fail with a message containing want.
func (h *host) fail(line, want string) {
	h.t.Helper()
	r := h.do(line)
	if r.OK || !strings.Contains(r.Text, want) {
		h.t.Errorf("%s: answered %v %q; want ? containing %q", line, r.OK, r.Text, want)
	}
}

// liveProcesses lists, as "PID ARGS…" (and " (in DIR)" when where gives a
// DIR), the live processes but this one that keep selects by their pid
// and command line; zombies are dead already and left out.
func liveProcesses(keep func(pid int, args []string) (where string, ok bool)) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		args := strings.Split(string(cmdline), "\x00")
		where, ok := keep(pid, args)
		if st := testproc.State(pid); !ok || st == "" || st == "Z" {
			continue
		}
		line := fmt.Sprintf("%d %s", pid, strings.Join(args, " "))
		if where != "" {
			line += " (in " + where + ")"
		}
		found = append(found, line)
	}
	return found
}

// botProcesses lists the live processes whose executable is in binDir and
// is a bot, plus any "sleep 300" child a forking bot left.
func botProcesses() []string {
	return liveProcesses(func(pid int, args []string) (string, bool) {
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		ours := strings.Contains(string(env), "KINROW_E2E="+binDir) // not another package's test
		return "", strings.HasPrefix(args[0], filepath.Join(binDir, "kinrow-bot-")) ||
			(ours && len(args) > 1 && filepath.Base(args[0]) == "sleep" && args[1] == "300")
	})
}

// childBot returns the pid of the one bot process whose parent is host.
func childBot(t *testing.T, host int) int {
	t.Helper()
	var found []int
	for _, p := range botProcesses() {
		pid, _ := strconv.Atoi(strings.Fields(p)[0])
		if f := testproc.Stat(pid); len(f) > 1 && f[1] == strconv.Itoa(host) {
			found = append(found, pid)
		}
	}
	if len(found) != 1 {
		t.Fatalf("bot processes of host %d: %v", host, found)
	}
	return found[0]
}

// waitStopped waits until process pid is stopped (state T in
// /proc/PID/stat): kill(2) only queues SIGSTOP, and a loaded machine may
// let the process run on for a while, long enough to answer a request.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		switch testproc.State(pid) {
		case "":
			t.Fatalf("process %d is gone", pid)
		case "T":
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not stop within 5 s of SIGSTOP", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func checkNoBotProcesses(t *testing.T) {
	t.Helper()
	checkNoneLeft(t, "bot processes", 3*time.Second, botProcesses)
}

// playGame plays a whole game: the controller plays x with the first legal
// move of its own position, the loaded bot answers for o.
func playGame(t *testing.T, h *host, rules string) string {
	t.Helper()
	r, err := engine.ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	h.ok("rules " + rules)
	h.ok("kinrow-load o random seed=3")
	pos := engine.NewPosition(r)
	for pos.Result() == engine.Open {
		var m engine.Move
		if pos.ToMove() == engine.X {
			legal := pos.LegalMoves(nil)
			m = legal[len(legal)/2]
			h.ok("play x " + r.FormatMove(m))
		} else {
			text := h.ok("genmove o")
			m, err = r.ParseMove(text)
			if err != nil {
				t.Fatalf("genmove o answered %q: %v", text, err)
			}
		}
		if err := pos.Apply(m); err != nil {
			t.Fatalf("host accepted an illegal move: %v", err)
		}
	}
	score := h.ok("final_score")
	if score != pos.Result().String() {
		t.Errorf("final_score %s; our replay says %s", score, pos.Result())
	}
	return h.ok("kinrow-record")
}

func TestFullGamesAgainstRandom(t *testing.T) {
	h := startHost(t)
	for _, rules := range []string{"connect4", "tictactoe"} {
		rec := playGame(t, h, rules)
		if !strings.Contains(rec, `"o":"random"`) || !strings.Contains(rec, `"result":"`) {
			t.Errorf("%s record: %s", rules, rec)
		}
	}
	h.ok("quit")
}

func TestMisbehavingBotsForfeit(t *testing.T) {
	tests := []struct {
		bot, opts string
		forfeit   string // in kinrow-result
	}{
		{"hang", "", "timed out after 300 ms (no answer; it stalled)"},
		{"late", "late_ms=1500", "timed out after 300 ms"},
		{"crash", "", "forfeit: x (crash) crashed"},
		{"illegal", "kind=garbage", "unparsable move"},
		{"illegal", "kind=full", "illegal move"},
		{"illegal", "kind=offboard", "forfeit: x (illegal) answered"},
		{"forker", "", "timed out after 300 ms"},
	}
	h := startHost(t, "--grace", "100ms")
	h.ok("kinrow-movetime 300")
	for _, tc := range tests {
		t.Run(tc.bot+" "+tc.opts, func(t *testing.T) {
			h.t = t
			h.ok("rules connect4")
			for i := 0; i < 6; i++ { // fill column 1 for kind=full
				h.ok("play " + [2]string{"x", "o"}[i%2] + " 1")
			}
			h.ok(strings.TrimSpace("kinrow-load x " + tc.bot + " " + tc.opts))
			start := time.Now()
			if got := h.ok("genmove x"); got != "resign" {
				t.Errorf("genmove x = %q, want resign", got)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("the forfeit took %v: the host waited on the bot", took)
			}
			if res := h.ok("kinrow-result"); !strings.HasPrefix(res, "O+ forfeit") || !strings.Contains(res, tc.forfeit) {
				t.Errorf("kinrow-result = %q; want O+ forfeit ... %q", res, tc.forfeit)
			}
			if rec := h.ok("kinrow-record"); !strings.Contains(rec, `"winner":"controller"`) || !strings.Contains(rec, `"digits":"111111"`) {
				t.Errorf("record lost: %s", rec)
			}
			h.ok("protocol_version") // the host keeps answering
			h.ok("kinrow-unload x")
			if tc.bot != "illegal" {
				checkNoBotProcesses(t)
			}
		})
	}
}

func TestBotsThatDoNotStart(t *testing.T) {
	h := startHost(t, "--bot-start-timeout", "1s")
	h.fail("kinrow-load x sleeper", "bot sleeper did not start within 1s")
	h.fail("kinrow-load x junk", "instead of the plugin handshake")
	h.fail("kinrow-load x oldproto", "speaks plugin protocol version 0")
	h.fail("kinrow-load x nosuchbot", "unknown bot")
	h.fail("kinrow-load x ../../bin/sh", "path separator")
	h.fail("kinrow-load x random tt=3", "unknown option tt")
	h.ok("protocol_version")
	checkNoBotProcesses(t)
}

func TestJunkOnBotStdoutDoesNotReachTheController(t *testing.T) {
	h := startHost(t)
	h.ok("kinrow-load x junkafter")
	h.ok("kinrow-load o junkafter")
	for i := 0; i < 6; i++ {
		if got := h.ok("genmove " + [2]string{"x", "o"}[i%2]); got == "resign" {
			t.Fatalf("junkafter forfeited: %s", h.ok("kinrow-result"))
		}
	}
	if p := h.ok("kinrow-record"); !strings.Contains(p, `"x":"junkafter","o":"junkafter#2"`) {
		t.Errorf("self-play names: %s", p)
	}
}

// TestFrozenBotIsKilled: a bot stopped from outside (SIGSTOP) forfeits on
// time and is killed, and the next genmove starts a fresh one. Under the
// default --bot-suspend the bot is frozen in its cgroup between requests,
// so the SIGSTOP lands when the host thaws it for its move; with
// --bot-suspend=false it is stopped at once.
func TestFrozenBotIsKilled(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{{"suspended by default", nil}, {"not suspended", []string{"--bot-suspend=false"}}} {
		t.Run(tc.name, func(t *testing.T) {
			h := startHost(t, tc.args...)
			h.ok("kinrow-movetime 200")
			h.ok("kinrow-load x random")
			pid := childBot(t, h.cmd.Process.Pid)
			stopProcess(t, pid)
			if tc.args != nil {
				waitStopped(t, pid)
			}
			start := time.Now()
			if got := h.ok("genmove x"); got != "resign" {
				t.Errorf("genmove by a frozen bot = %q", got)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("forfeiting a frozen bot took %v", took)
			}
			if res := h.ok("kinrow-result"); !strings.Contains(res, "timed out") {
				t.Errorf("result %q", res)
			}
			checkNoBotProcesses(t)
			h.ok("clear_board")
			if got := h.ok("genmove x"); got == "resign" { // a fresh random bot
				t.Errorf("the next genmove did not start a fresh bot: %s", h.ok("kinrow-result"))
			}
		})
	}
}

func TestBotDiesWithTheHost(t *testing.T) {
	h := startHost(t)
	h.ok("kinrow-load x random")
	h.ok("kinrow-load o random")
	if n := len(botProcesses()); n != 2 {
		t.Fatalf("%d bot processes, want 2", n)
	}
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	checkNoBotProcesses(t)
}

func TestInterruptStopsBots(t *testing.T) {
	h := startHost(t)
	h.ok("kinrow-load x random")
	if err := h.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	checkNoBotProcesses(t)
}

func TestNothingLeftBehind(t *testing.T) {
	h := startHost(t)
	fds := func() int {
		ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", h.cmd.Process.Pid))
		return len(ents)
	}
	h.ok("kinrow-load x random")
	h.ok("kinrow-unload x")
	before := fds()
	for i := 0; i < 15; i++ {
		h.ok("kinrow-load x random")
		h.ok("genmove x")
		h.ok("kinrow-unload x")
		h.ok("clear_board")
	}
	if after := fds(); after > before+2 {
		t.Errorf("file descriptors grew from %d to %d over 15 loads", before, after)
	}
	h.ok("quit")
	h.in.Close()
	h.cmd.Wait()
	left, _ := os.ReadDir(h.tmp)
	if len(left) != 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("left in TMPDIR after quit: %v", names)
	}
}

func TestBadInputThroughPipes(t *testing.T) {
	// Raw pipes: the input holds lines no client would send.
	cmd := exec.Command(filepath.Join(binDir, "kinrow"), "--log-level", "off")
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "KINROW_BOT_PATH=")
	var input strings.Builder
	input.WriteString("play x 4\nshowboard\n")
	bad := []struct{ line, want string }{
		{"frobnicate", "unknown command"},
		{"play x", "syntax error"},
		{"play o 9", "illegal move"},
		{"play o 0", "illegal move"},
		{"play x 5", "x is not to move"},
		{"rules mnk 0 5 3", "rows 0 out of range"},
		{"rules connectx 6 7 99", "k 99 out of range"},
		{"kinrow-load x ../../bin/sh", "path separator"},
		{strings.Repeat("x", 1<<20), "line too long"},
		{"\xff\xfe\x01play\x80 x", "unknown command"},
		{"7", "syntax error"},
	}
	for _, b := range bad {
		input.WriteString(b.line + "\n")
	}
	input.WriteString("showboard\n")
	cmd.Stdin = strings.NewReader(input.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kinrow: %v", err)
	}
	rr := gtp.NewResponseReader(strings.NewReader(string(out)))
	var answers []gtp.Response
	for {
		r, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("answer %d: %v\n%s", len(answers), err, out)
		}
		answers = append(answers, r)
	}
	if len(answers) != len(bad)+3 {
		t.Fatalf("%d answers to %d commands:\n%s", len(answers), len(bad)+3, out)
	}
	for i, b := range bad {
		a := answers[i+2]
		if a.OK || !strings.Contains(a.Text, b.want) {
			t.Errorf("%.40q: answered %v %q; want ? containing %q", b.line, a.OK, a.Text, b.want)
		}
	}
	if answers[1].Text != answers[len(answers)-1].Text {
		t.Errorf("the position changed:\n%s\nthen\n%s", answers[1].Text, answers[len(answers)-1].Text)
	}
}

// readRecordsFile reads the records a match wrote at path, one per line;
// a line that does not parse fails t.
func readRecordsFile(t *testing.T, path string) []*record.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*record.Record
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		rec, err := record.Parse([]byte(l))
		if err != nil {
			t.Fatalf("record %s: %v", l, err)
		}
		recs = append(recs, rec)
	}
	return recs
}
