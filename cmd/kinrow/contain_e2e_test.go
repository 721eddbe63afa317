//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
)

// escapedAlive lists the escaper's children (their pids in
// $TMPDIR/escaper.pids of host h) still running.
func escapedAlive(t *testing.T, tmp string) (all, alive []int) {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(tmp, "escaper.pids"))
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		all = append(all, pid)
		if st := testproc.State(pid); st != "" && st != "Z" {
			alive = append(alive, pid)
		}
	}
	return all, alive
}

// waitNoEscaped waits (bounded) until no escaped child of the escaper runs.
func waitNoEscaped(t *testing.T, tmp, when string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		all, alive := escapedAlive(t, tmp)
		if len(all) == 0 {
			t.Fatalf("%s: the escaper started no child", when)
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: escaped children %v of %v still run", when, alive, all)
			for _, pid := range alive {
				_ = syscallKill(pid)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Issue 14: a bot whose genmove runs `setsid -f sh -c 'sleep 200'` (or
// forks twice) leaves nothing behind after quit, after a forfeit, and
// its forfeits are fast.
func TestEscaperLeavesNothing(t *testing.T) {
	for _, how := range []string{"setsid", "doublefork"} {
		t.Run(how+"/quit", func(t *testing.T) {
			h := startHost(t, "--sandbox=off")
			h.ok("rules tictactoe")
			h.ok("kinrow-movetime 100")
			h.ok("kinrow-load o escaper how=" + how)
			h.ok("play x b2")
			if got := h.ok("genmove o"); got == "resign" {
				t.Fatalf("genmove o = resign: %s", h.ok("kinrow-result"))
			}
			h.ok("quit")
			h.in.Close()
			if err := h.cmd.Wait(); err != nil {
				t.Errorf("kinrow: %v", err)
			}
			waitNoEscaped(t, h.tmp, "after quit")
		})
		t.Run(how+"/forfeit", func(t *testing.T) {
			h := startHost(t, "--sandbox=off", "--grace", "100ms")
			// Time for the escape itself on a loaded machine, then the
			// timeout.
			took := h.oForfeits("500", "escaper how="+how+" mode=hang")
			// The host waited 3 s on go-plugin for the pipes the
			// escaped child held (3.2 s a forfeit at movetime 100 ms).
			if took > 3*time.Second {
				t.Errorf("the forfeit took %v", took)
			}
			waitNoEscaped(t, h.tmp, "after the forfeit")
		})
	}
}

// envTMPDIR is the TMPDIR cmd runs with.
func envTMPDIR(cmd *exec.Cmd) string {
	tmp := ""
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	return tmp
}

// Issue 14: in kinrow match, every game against an escaper that hangs is
// a quick timeout forfeit (the host took 3.2 s a forfeit, waiting
// on the pipes the escaped children held), and no escaped child outlives
// the match (the old host's process-group kill missed them all).
func TestEscaperInMatch(t *testing.T) {
	for _, how := range []string{"setsid", "doublefork"} {
		t.Run(how, func(t *testing.T) {
			const games = 4
			cmd := kinrowCmd(t, "match", "--rules", "tictactoe", "--bot", "random", "--bot", "escaper",
				"--bot-opt", "escaper:mode=hang", "--bot-opt", "escaper:how="+how, "--games", strconv.Itoa(games),
				"--movetime", "500ms", "--grace", "100ms", "--format", "json", "--sandbox=off")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			out, err := cmd.Output()
			took := time.Since(start)
			if err != nil {
				t.Fatalf("kinrow match: %v\n%s", err, stderr.String())
			}
			if !strings.Contains(string(out), `"reason": "timeout"`) && !strings.Contains(string(out), `"reason":"timeout"`) {
				t.Errorf("no timeout forfeit in the summary:\n%s", out)
			}
			// Each game: the escaper's 600 ms to its forfeit, a restart.
			if took > games*2*time.Second {
				t.Errorf("%d games against the escaper took %v", games, took)
			}
			waitNoEscaped(t, envTMPDIR(cmd), "after the match")
		})
	}
}

// Issue 14: kinrow pbrain --bot escaper answered every other TURN in
// 2.95 s against timeout_turn 1000, and its escaped children outlived END.
// Now each TURN is answered in time and END leaves nothing behind.
func TestEscaperPbrain(t *testing.T) {
	cmd := kinrowCmd(t, "pbrain", "--bot", "escaper", "--log-level", "warn", "--sandbox=off")
	in, answer, stderr := pbrainSession(t, cmd)
	if got := answer("START 15"); got != "OK" {
		t.Fatalf("START 15: %q", got)
	}
	io.WriteString(in, "INFO timeout_turn 1000\r\n")
	for i := 0; i < 4; i++ {
		start := time.Now()
		got := answer(fmt.Sprintf("TURN %d,7", i))
		if took := time.Since(start); took > time.Second {
			t.Errorf("TURN %d,7 answered in %v, over timeout_turn 1000 ms", i, took)
		}
		if !strings.Contains(got, ",") {
			t.Errorf("TURN %d,7: %q, want a move", i, got)
		}
	}
	io.WriteString(in, "END\r\n")
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("kinrow pbrain: %v\n%s", err, stderr.String())
	}
	waitNoEscaped(t, envTMPDIR(cmd), "after END")
}

// pbrainSession starts cmd (a kinrow pbrain) as a Gomocup manager would:
// it returns the brain's stdin, a function that sends a command and
// returns the brain's next answer (MESSAGE and DEBUG lines skipped), and
// the brain's stderr.
func pbrainSession(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, func(string) string, *strings.Builder) {
	t.Helper()
	stderr := &strings.Builder{}
	cmd.Stderr = &syncWriter{w: stderr}
	in, out := startPiped(t, cmd)
	sc := bufio.NewScanner(out)
	answer := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(in, line+"\r\n"); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
			if l := sc.Text(); !strings.HasPrefix(l, "MESSAGE") && !strings.HasPrefix(l, "DEBUG") {
				return l
			}
		}
		t.Fatalf("no answer to %s: %v\n%s", line, sc.Err(), stderr.String())
		return ""
	}
	return in, answer, stderr
}

// Issue 14: the host gained 3 fds and a socket file per game against the
// escaper (28 → 178 fds in 57 games); now nothing grows.
func TestEscaperNoFdGrowth(t *testing.T) {
	h := startHost(t, "--sandbox=off")
	pid := h.cmd.Process.Pid
	game := func() {
		h.ok("rules tictactoe")
		h.ok("kinrow-movetime 100")
		h.ok("kinrow-load o escaper")
		h.ok("play x b2")
		h.ok("genmove o")
		h.ok("kinrow-load o random") // the escaper is closed
	}
	game() // warm-up: the loader's own descriptors
	before := fds(t, pid)
	const n = 12
	for i := 0; i < n; i++ {
		game()
	}
	// Descriptors close as bots are reaped: look again for a while.
	deadline := time.Now().Add(5 * time.Second)
	after := fds(t, pid)
	for after > before+2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		after = fds(t, pid)
	}
	if after > before+2 {
		t.Errorf("the host's fds grew from %d to %d over %d games against the escaper", before, after, n)
	}
	waitNoEscaped(t, h.tmp, "after their bots were closed")
}

func fds(t *testing.T, pid int) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// Issue 14: a bot reached 1.3 GiB before its deadline kill. Under
// --bot-memory it forfeits for memory, its peak in the detail, and the
// host lives on.
func TestBotMemoryCap(t *testing.T) {
	if c := procrunDetect(); !strings.Contains(c, "memory cap: cgroup") {
		t.Skipf("no cgroup memory controller here (%s)", c)
	}
	h := startHost(t, "--bot-memory", "64M")
	if took := h.oForfeits("20000", "hog"); took > 15*time.Second {
		t.Errorf("the hog was stopped after %v: not by its cap", took)
	}
	res := h.ok("kinrow-result")
	if !strings.Contains(res, "forfeit") || !strings.Contains(res, "over its memory cap of 64 MiB (peak") {
		t.Errorf("kinrow-result = %q", res)
	}
	h.ok("kinrow-load o random") // the host is alive and well
}

// Gomocup's INFO max_memory caps the brain's bot: the hog is stopped at
// the manager's limit, the host answers a move of its own, and the log
// says why.
func TestPbrainHonoursMaxMemory(t *testing.T) {
	if c := procrunDetect(); !strings.Contains(c, "memory cap: cgroup") {
		t.Skipf("no cgroup memory controller here (%s)", c)
	}
	cmd := kinrowCmd(t, "pbrain", "--bot", "hog", "--log-level", "info")
	var stderr strings.Builder
	cmd.Stderr = &syncWriter{w: &stderr}
	in, out := startPiped(t, cmd)
	start := time.Now()
	io.WriteString(in, "START 15\r\nINFO max_memory 67108864\r\nINFO timeout_turn 20000\r\nTURN 7,7\r\n")
	sc := bufio.NewScanner(out)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), ",") {
			break
		}
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the move took %v: the hog was not stopped by its cap", took)
	}
	io.WriteString(in, "END\r\n")
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("kinrow pbrain: %v", err)
	}
	if len(lines) < 2 || lines[0] != "OK" || !strings.Contains(lines[len(lines)-1], ",") {
		t.Errorf("stdout = %q, want OK and a move", lines)
	}
	if !strings.Contains(stderr.String(), "over its memory cap of 64 MiB") {
		t.Errorf("the log does not say the bot went over its cap:\n%s", stderr.String())
	}
}

// Issue 14: a bot's handshake line sent the host's gRPC client to any TCP
// address. Now only a unix socket in the bot's private directory is
// accepted; anything else is a start failure naming it.
func TestHandshakeAddressRefused(t *testing.T) {
	h := startHost(t)
	h.ok("rules tictactoe")
	h.fail("kinrow-load o badaddr", `tcp address "127.0.0.1:45678": only a unix socket in its private directory is accepted`)
	// The session hello (plugin protocol 2) names a second socket: the same
	// rule holds there (hijack makes its session socket in /tmp; the host
	// used to dial it).
	h.fail("kinrow-load o hijack", `session hello names socket "`+os.TempDir())
	h.fail("kinrow-load o hijack", `outside its private socket directory`)
	h.ok("kinrow-load o random")
}

// Issue 23: the handshake check read only the path's text, so a symbolic
// link inside the bot's private socket directory, pointing at another
// process's unix socket, was dialled (the foreign listener received the
// host's HTTP/2 preface). Now the socket is opened without following a
// link and that very file dialled; the link is refused by name. With and
// without the sandbox: it is the host that dials.
func TestHandshakeSymlinkRefused(t *testing.T) {
	for _, mode := range []string{"off", "auto"} {
		t.Run(mode, func(t *testing.T) {
			dir, err := os.MkdirTemp("", "kf") // short: unix socket paths are limited
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			sock := filepath.Join(dir, "foreign.sock")
			ln, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			dialled := make(chan struct{}, 1)
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					c.Close()
					select {
					case dialled <- struct{}{}:
					default:
					}
				}
			}()
			t.Setenv("KINROW_BADADDR", "link")
			t.Setenv("KINROW_BADADDR_TARGET", sock)
			h := startHost(t, "--sandbox="+mode)
			h.ok("rules tictactoe")
			h.fail("kinrow-load o badaddr", "symbolic link, which is not followed")
			select {
			case <-dialled:
				t.Error("the host dialled the foreign socket the bot's link points at")
			case <-time.After(200 * time.Millisecond):
			}
			h.ok("kinrow-load o random")
		})
	}
}

// kinrow bots lock writes the bots' SHA-256 beside them; a bot changed
// since is refused before it runs, and --verify-bots refuses bots without
// a lock file.
func TestBotsLock(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "kinrow-bot-random")
	b, err := os.ReadFile(filepath.Join(binDir, "kinrow-bot-random"))
	if err != nil {
		t.Skipf("no random bot built: %v", err)
	}
	if err := os.WriteFile(bot, b, 0o755); err != nil {
		t.Fatal(err)
	}
	// A kinrow of its own in dir: bots lock writes beside the bots of the
	// bot path and beside kinrow, which must not be the shared binDir.
	kb, err := os.ReadFile(filepath.Join(binDir, "kinrow"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kinrow"), kb, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, string, error) {
		cmd := kinrowCmd(t, args...)
		cmd.Path, cmd.Args[0] = filepath.Join(dir, "kinrow"), filepath.Join(dir, "kinrow")
		cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+dir)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
	load := "rules tictactoe\nkinrow-load o random\n"
	if out, _, _ := run(load, "--verify-bots"); !strings.Contains(out, "--verify-bots needs") {
		t.Errorf("--verify-bots without a lock file: %q", out)
	}
	if out, errs, err := run("", "bots", "lock"); err != nil || !strings.Contains(out, "kinrow-bots.lock") {
		t.Fatalf("kinrow bots lock: %v %q %q", err, out, errs)
	}
	if out, _, _ := run(load, "--verify-bots"); strings.Contains(out, "?") {
		t.Errorf("locked and unchanged: %q", out)
	}
	if err := os.WriteFile(bot, append(b, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := run(load); !strings.Contains(out, "refused") || !strings.Contains(out, "SHA-256") {
		t.Errorf("a changed bot with a lock file beside it: %q", out)
	}
	if err := os.WriteFile(filepath.Join(dir, "kinrow-bots.lock"), []byte("not a lock line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := run(load); !strings.Contains(out, "line 1") {
		t.Errorf("a malformed lock file: %q", out)
	}
}

// Issue 14: a bot writing 11 MB to stderr a move had all of it copied into
// the host's stderr. Now at most 64 KiB a move reaches the log, and the
// rest is counted.
func TestStderrFloodCapped(t *testing.T) {
	h := startHost(t)
	h.ok("rules tictactoe")
	h.ok("kinrow-movetime 5000")
	h.ok("kinrow-load o flood")
	h.ok("play x b2")
	h.ok("genmove o")
	h.ok("kinrow-load o random") // the flood's stderr is read to its end
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(h.logText(), "stderr over its cap") {
		time.Sleep(20 * time.Millisecond)
	}
	log := h.logText()
	if !strings.Contains(log, "stderr over its cap") {
		t.Errorf("no word of the dropped stderr in the log")
	}
	if len(log) > 1<<20 {
		t.Errorf("the host's log is %d bytes for one move of an 11 MiB stderr flood", len(log))
	}
}

// Issue 35: a plugin bot flooding its stdout after the handshake (a line
// past 64 KiB, or megabytes of lines) stalled its game until the move
// timed out, or was read and dropped for ever. Now it forfeits at once,
// the result naming the flood, and nothing of it is left.
func TestStdoutFloodForfeits(t *testing.T) {
	for _, opts := range []string{"to=stdout mb=1 line=1", "to=stdout mb=8"} {
		t.Run(opts, func(t *testing.T) {
			h := startHost(t)
			took := h.oForfeits("10000", "flood "+opts)
			if res := h.ok("kinrow-result"); !strings.Contains(res, "flooded its standard output") {
				t.Errorf("kinrow-result = %q; want a forfeit naming the flood", res)
			}
			if took > 5*time.Second {
				t.Errorf("the forfeit took %v of a 10 s move: the flood stalled the game", took)
			}
			h.ok("kinrow-unload o")
			checkNoBotProcesses(t)
		})
	}
}

// procCPU is the CPU time process pid has used (utime + stime in
// /proc/PID/stat); false once it is gone.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 13 {
		return 0, false
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * (time.Second / 100), true
}

// By default, and under --bot-suspend=spinner, the spinner's busy child,
// started at its genmove and left running after its answer, uses no CPU
// while its opponent thinks, and the spinner answers its next genmove.
func TestBotSuspendStopsThinkingOnOpponentsTime(t *testing.T) {
	if c := procrunDetect(); !strings.Contains(c, "suspend all: yes") {
		t.Skipf("neither cgroup.freeze nor SIGSTOP of a bot's processes works here (%s)", c)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"default", nil},
		{"named", []string{"--bot-suspend=spinner"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startHost(t, append([]string{"--sandbox=off"}, tc.args...)...)
			pidfile := filepath.Join(h.tmp, "child.pid")
			h.ok("rules tictactoe")
			h.ok("kinrow-movetime 2000")
			h.ok("kinrow-load o spinner pidfile=" + pidfile)
			h.ok("play x b2")
			h.ok("genmove o")
			child := testbuild.ReadPid(t, pidfile)
			// Suspended at most 100 ms after its answer (its busy goroutine
			// never lets it go idle): wait well past that, then watch it for
			// a second.
			time.Sleep(500 * time.Millisecond)
			c0, ok := procCPU(child)
			if !ok {
				t.Fatal("the spinner's busy child is gone")
			}
			time.Sleep(time.Second)
			c1, _ := procCPU(child)
			if d := c1 - c0; d > 30*time.Millisecond {
				t.Errorf("the suspended spinner's busy child used %v of CPU in 1 s while its opponent thought", d)
			}
			h.ok("play x c3")
			if got := h.ok("genmove o"); got == "resign" {
				t.Errorf("the spinner's second genmove: resign (%s)", h.ok("kinrow-result"))
			}
		})
	}
}

// kinrow pbrain --bot-suspend: the brain's bot is suspended between its
// TURNs (as Gomocup managers suspend brains), so the spinner's busy child
// uses no CPU while the manager's other brain thinks, and every TURN is
// still answered.
func TestPbrainBotSuspend(t *testing.T) {
	if c := procrunDetect(); !strings.Contains(c, "suspend all: yes") {
		t.Skipf("neither cgroup.freeze nor SIGSTOP of a bot's processes works here (%s)", c)
	}
	pidfile := filepath.Join(t.TempDir(), "child.pid")
	cmd := kinrowCmd(t, "pbrain", "--bot", "spinner", "--bot-opt", "pidfile="+pidfile, "--bot-suspend", "--log-level", "warn", "--sandbox=off")
	in, answer, stderr := pbrainSession(t, cmd)
	if got := answer("START 15"); got != "OK" {
		t.Fatalf("START 15: %q", got)
	}
	io.WriteString(in, "INFO timeout_turn 2000\r\n")
	for i := 0; i < 3; i++ {
		if got := answer(fmt.Sprintf("TURN %d,7", i)); !strings.Contains(got, ",") {
			t.Fatalf("TURN %d,7: %q\n%s", i, got, stderr.String())
		}
		if i > 0 {
			continue
		}
		child := testbuild.ReadPid(t, pidfile)
		time.Sleep(500 * time.Millisecond) // suspended at most 100 ms after its answer
		c0, ok := procCPU(child)
		if !ok {
			t.Fatal("the spinner's busy child is gone")
		}
		time.Sleep(time.Second)
		if c1, _ := procCPU(child); c1-c0 > 30*time.Millisecond {
			t.Errorf("the suspended brain's busy child used %v of CPU in 1 s", c1-c0)
		}
	}
	io.WriteString(in, "END\r\n")
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("kinrow pbrain: %v\n%s", err, stderr.String())
	}
}

// oForfeits plays tictactoe at movetime ms against bot (NAME and options)
// as o, which must resign (forfeit) its first move; it returns how long
// that move took.
func (h *host) oForfeits(movetime, bot string) time.Duration {
	h.t.Helper()
	h.ok("rules tictactoe")
	h.ok("kinrow-movetime " + movetime)
	h.ok("kinrow-load o " + bot)
	h.ok("play x b2")
	start := time.Now()
	if got := h.ok("genmove o"); got != "resign" {
		h.t.Fatalf("genmove o = %q, want resign (a forfeit)", got)
	}
	return time.Since(start)
}
