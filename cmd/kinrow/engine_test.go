package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
)

// engineDir holds the test engines (gomocupbrain, kinrowengine), built once
// by engines; they are not kinrow-bot-* plugins, so they live apart from
// binDir and only manifests make them bots.
var (
	engineOnce sync.Once
	engineDir  string
	engineErr  error
)

func engines(t *testing.T) string {
	t.Helper()
	engineOnce.Do(func() {
		engineDir = filepath.Join(binDir, "engines")
		cmd := exec.Command("go", "build", "-o", engineDir+string(filepath.Separator),
			"./internal/testbots/gomocupbrain", "./internal/testbots/kinrowengine")
		cmd.Dir = testbuild.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			engineErr = fmt.Errorf("build the test engines: %v\n%s", err, out)
		}
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engineDir
}

// manifests writes NAME.engine.toml files into a fresh bot directory.
func manifests(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".engine.toml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// brainManifest is a manifest running the test Gomocup brain with args.
func brainManifest(t *testing.T, rules string, args ...string) string {
	argv := []string{strconv.Quote(filepath.Join(engines(t), "gomocupbrain"))}
	for _, a := range args {
		argv = append(argv, strconv.Quote(a))
	}
	return fmt.Sprintf("command = [%s]\nprotocol = \"gomocup\"\nrules = [%s]\n", strings.Join(argv, ", "), rules)
}

// engineProcesses lists live processes that run a program from one of dirs
// or run in one of dirs (the engines' working directories).
func engineProcesses(dirs ...string) []string {
	return liveProcesses(func(pid int, args []string) (string, bool) {
		cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
		for _, d := range dirs {
			if strings.HasPrefix(args[0], d+"/") || cwd == d {
				return cwd, true
			}
		}
		return "", false
	})
}

// checkNoEngineProcesses waits a little for the engines to be gone.
func checkNoEngineProcesses(t *testing.T, dirs ...string) {
	t.Helper()
	checkNoneLeft(t, "engine processes", 3*time.Second, func() []string { return engineProcesses(dirs...) })
}

// runEngineMatch runs kinrow match with the bot directory dir and returns the
// JSON summary and the records written.
type pairing struct {
	A, B        string
	Games, Wins int
	Bots        summaryBots
}

func runEngineMatch(t *testing.T, dir string, args ...string) ([]pairing, []*record.Record) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	cmd := kinrowCmd(t, append([]string{"match", "--out", out, "--format", "json"}, args...)...)
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+dir)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow match: %v\n%s", err, stderr.String())
	}
	var sum struct {
		Games    int
		Pairings []pairing
	}
	if err := json.Unmarshal([]byte(stdout.String()), &sum); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
	}
	recs := readRecordsFile(t, out)
	if t.Failed() {
		t.Logf("stderr:\n%s", stderr.String())
	}
	return sum.Pairings, recs
}

// The random brain, loaded through its manifest, plays mics at gomoku; it
// is stopped (state T, or its cgroup frozen where the host makes one)
// whenever mics thinks, and nothing is left running.
func TestEngineManifestPlaysMatch(t *testing.T) {
	dir := manifests(t, map[string]string{
		"brain": brainManifest(t, `"gomoku"`, "-pidfile", "pid"),
	})
	pidfile := filepath.Join(dir, "pid")
	stopped := make(chan bool, 1)
	done := make(chan struct{})
	go func() { // watch the brain while the match runs
		seen := false
		for {
			select {
			case <-done:
				stopped <- seen
				return
			case <-time.After(5 * time.Millisecond):
			}
			if b, err := os.ReadFile(pidfile); err == nil {
				if pid, err := strconv.Atoi(string(b)); err == nil && (testproc.State(pid) == "T" || procrunFrozen(pid)) {
					seen = true
				}
			}
		}
	}()
	pairs, recs := runEngineMatch(t, dir, "--rules", "gomoku", "--bot", "brain", "--bot", "mics", "--games", "2", "--movetime", "150ms", "--sandbox=off")
	close(done)
	if !<-stopped {
		t.Errorf("the brain was never seen stopped (SIGSTOP or a frozen cgroup) while mics thought")
	}
	if len(pairs) != 1 || pairs[0].Games != 2 || len(recs) != 2 {
		t.Fatalf("pairings %+v, %d records", pairs, len(recs))
	}
	for _, rec := range recs {
		if rec.Reason != record.ReasonWin && rec.Reason != record.ReasonDraw {
			t.Errorf("game ended by %s (%s %s); want a game played out", rec.Reason, rec.Forfeit, rec.Detail)
		}
		if rec.Players.X != "brain" && rec.Players.O != "brain" || len(rec.Moves) < 9 {
			t.Errorf("record: players %+v, %d moves", rec.Players, len(rec.Moves))
		}
	}
	checkNoEngineProcesses(t, engines(t), dir)
	checkNoBotProcesses(t)
}

// Each misbehaving brain forfeits with its reason; a broken manifest stops
// the match before any game, with the reason.
func TestMisbehavingEnginesForfeitInMatch(t *testing.T) {
	brain := func(mode, after string) string { return brainManifest(t, `"gomoku"`, "-mode", mode, "-after", after) }
	kinrow := func(mode string) string {
		return fmt.Sprintf("command = [%q, \"-mode\", %q, \"-after\", \"1\"]\nprotocol = \"kinrow\"\nrules = [\"gomoku\"]\n",
			filepath.Join(engines(t), "kinrowengine"), mode)
	}
	dir := manifests(t, map[string]string{
		"silent":  brain("silent", "1"),
		"junk":    brain("junk", "1"),
		"illegal": brain("illegal", "0"),
		"crash":   brain("crash", "1"),
		"kcrash":  kinrow("crash"),
		"kjunk":   kinrow("junk"),
		"broken":  "command = [\"./x\"]\nprotocol = \"uci\"\nrules = [\"gomoku\"]\n",
	})
	pairs, recs := runEngineMatch(t, dir, "--rules", "gomoku", "--bot", "random", "--bot", "silent", "--bot", "junk",
		"--bot", "illegal", "--bot", "crash", "--bot", "kcrash", "--bot", "kjunk", "--gauntlet", "--games", "2", "--concurrency", "2",
		"--movetime", "200ms", "--grace", "50ms")
	// A junk line is skipped while a move is awaited, as Gomocup's managers
	// skip it: a brain that writes nothing else stalls.
	want := map[string]string{"silent": "timeout", "junk": "timeout", "illegal": "illegal move", "crash": "crash", "kcrash": "crash", "kjunk": "protocol error"}
	if len(pairs) != len(want) || len(recs) != 2*len(want) {
		t.Fatalf("pairings %+v, %d records", pairs, len(recs))
	}
	for _, p := range pairs {
		if p.A != "random" || p.Wins != 2 || p.Bots.forfeits()[p.B][want[p.B]] != 2 {
			t.Errorf("pairing %s vs %s: wins %d, forfeits %v; want random to win both by %s", p.A, p.B, p.Wins, p.Bots.forfeits(), want[p.B])
		}
	}
	details := map[string]string{
		"silent": "(no answer; it stalled)", "junk": "(no answer; it stalled)",
		"illegal": `unparsable move: invalid move "15,0"`, "crash": "the engine process exited (exit status 3)",
	}
	for _, rec := range recs {
		loser := rec.Players.X
		if loser == "random" {
			loser = rec.Players.O
		}
		if d := details[loser]; d != "" && !strings.Contains(rec.Detail, d) {
			t.Errorf("%s forfeited with %q; want %q", loser, rec.Detail, d)
		}
	}
	checkNoEngineProcesses(t, engines(t), dir)

	cmd := kinrowCmd(t, "match", "--rules", "gomoku", "--bot", "random", "--bot", "broken")
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+dir)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 ||
		!strings.Contains(string(out), `--bot broken: engine broken is broken: manifest `+filepath.Join(dir, "broken.engine.toml")+`: unknown protocol "uci"`) {
		t.Errorf("match with a broken manifest: %v\n%s", err, out)
	}
	cmd = kinrowCmd(t, "match", "--rules", "connect4", "--bot", "random", "--bot", "silent")
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+dir)
	out, _ = cmd.CombinedOutput()
	if !strings.Contains(string(out), "--bot silent does not play connectx:6x7x4 (it plays mnk:15x15x5, as its manifest lists)") {
		t.Errorf("match at rules the engine does not list:\n%s", out)
	}
}

// startEngineHost runs bin/kinrow serve with dir as the bot path.
func startEngineHost(t *testing.T, dir string, args ...string) *host {
	t.Helper()
	return startHostIn(t, dir, func() { checkNoEngineProcesses(t, engines(t), dir) }, args...)
}

// In the text protocol: engines are listed (a broken one with its reason),
// load, play whole games, and a kinrow-protocol engine (kinrow serve
// itself) plays as a bot.
func TestEnginesInServe(t *testing.T) {
	dir := manifests(t, map[string]string{
		"brain":  brainManifest(t, `"gomoku", "mnk:9x9x5"`, "-transcript", "transcript"),
		"nested": fmt.Sprintf("command = [%q, \"serve\", \"--bot\", \"random\"]\nprotocol = \"kinrow\"\nrules = [\"connect4\"]\n", filepath.Join(binDir, "kinrow")),
		"nocmd":  "protocol = \"gomocup\"\nrules = [\"gomoku\"]\n",
	})
	h := startEngineHost(t, dir, "--sandbox=off") // the brain writes its transcript beside its manifest
	bots := h.ok("kinrow-bots")
	for _, want := range []string{"brain\n", "nested\n", "nocmd (broken: manifest " + filepath.Join(dir, "nocmd.engine.toml") + ": command: missing", "\nrandom"} {
		if !strings.Contains(bots, want) {
			t.Errorf("kinrow-bots lacks %q:\n%s", want, bots)
		}
	}
	h.fail("kinrow-load x nocmd", "command: missing: want an array of strings")
	h.ok("rules mnk:9x9x5")
	h.ok("kinrow-movetime 200")
	h.ok("kinrow-load x brain")
	h.ok("kinrow-load o mics")
	h.fail("kinrow-load o brain timeout_turn=5", "the host sets INFO timeout_turn itself")
	for i := 0; i < 81 && h.ok("kinrow-result") == "open"; i++ {
		h.ok("genmove " + []string{"x", "o"}[i%2])
	}
	if res := h.ok("kinrow-result"); !regexp.MustCompile(`^(X\+|O\+|0) (win|draw)`).MatchString(res) {
		t.Errorf("result %q; want a game played out", res)
	}
	if rec := h.ok("kinrow-record"); !strings.Contains(rec, `"x":"brain"`) {
		t.Errorf("record: %s", rec)
	}
	tr, _ := os.ReadFile(filepath.Join(dir, "transcript"))
	// The whole move time: the Gomocup tolerance (1 s) covers the margin.
	if !strings.HasPrefix(string(tr), "START 9\nINFO timeout_turn 200\n") {
		t.Errorf("brain transcript:\n%s", tr)
	}
	// A game the brain does not list: the rules command says the brain
	// refused it (never replacing it with another bot), and it cannot be loaded.
	h.fail("rules tictactoe", "x (brain) refused mnk:3x3x3")
	h.fail("kinrow-load x brain", "engine brain does not play mnk:3x3x3: it plays mnk:15x15x5, mnk:9x9x5")
	h.ok("rules connect4")
	h.ok("kinrow-load x nested")
	h.ok("kinrow-load o random")
	for i := 0; i < 42 && h.ok("kinrow-result") == "open"; i++ {
		h.ok("genmove " + []string{"x", "o"}[i%2])
	}
	if res := h.ok("kinrow-result"); !regexp.MustCompile(`^(X\+|O\+|0) (win|draw)`).MatchString(res) {
		t.Errorf("connect4 result %q; want a game played out", res)
	}
	h.ok("quit")
}

// The Python bot of docs/BOTS.md, extracted and run as a kinrow-protocol
// engine, plays out a match against random.
func TestPythonBotFromTheDocs(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		// The sandbox shows the engine the system directories: a python3
		// found first elsewhere (a pyenv shim under /root) would need a
		// read = [...] in the manifest (docs/BOTS.md).
		t.Setenv("PATH", "/usr/bin:"+os.Getenv("PATH"))
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	dir := docsPythonBot(t, "python3", "connect4", "tictactoe", "gomoku")
	// The script answers a session by itself as the docs say.
	cmd := exec.Command(py, filepath.Join(dir, "bot.py"))
	cmd.Stdin = strings.NewReader("1 protocol_version\nrules mnk:3x3x3\nplay x b2\n2 genmove o\nundo\nfoo\nquit\n")
	out, err := cmd.Output()
	if err != nil || !regexp.MustCompile(`^=1 2\n\n= \n\n= \n\n=2 [abc][123]\n\n= \n\n\? unknown command\n\n= \n\n$`).Match(out) {
		t.Errorf("session: %v\n%q", err, out)
	}
	for _, rules := range []string{"connect4", "tictactoe"} {
		pairs, recs := runEngineMatch(t, dir, "--rules", rules, "--bot", "py", "--bot", "random", "--games", "2", "--movetime", "500ms")
		for _, rec := range recs {
			if rec.Reason != record.ReasonWin && rec.Reason != record.ReasonDraw {
				t.Errorf("%s: game ended by %s: %s", rules, rec.Reason, rec.Detail)
			}
		}
		if len(pairs) != 1 || pairs[0].Games != 2 {
			t.Errorf("%s: pairings %+v", rules, pairs)
		}
	}
	checkNoEngineProcesses(t, dir)
}

// docsPythonBot writes the Python engine of docs/BOTS.md as bot.py, with
// a manifest "py" (run by python, playing rules), in a new bot directory.
func docsPythonBot(t *testing.T, python string, rules ...string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(testbuild.Root(), "docs", "BOTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```python\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/BOTS.md has no python block")
	}
	quoted := make([]string, len(rules))
	for i, r := range rules {
		quoted[i] = strconv.Quote(r)
	}
	dir := manifests(t, map[string]string{
		"py": fmt.Sprintf("command = [%q, \"bot.py\"]\nprotocol = \"kinrow\"\nrules = [%s]\n", python, strings.Join(quoted, ", ")),
	})
	if err := os.WriteFile(filepath.Join(dir, "bot.py"), m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
