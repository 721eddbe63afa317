package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/javabridge"
	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
)

// The Java tests build, once, into binDir: the bridge (kinrow-java.jar,
// through the Makefile's own rule), the stand-in course frameworks of
// java/testframework (java/fw), the test players and referee of
// java/testplayers (java/tp), and kinrow's course players compiled against
// the stand-ins by make java-course (course-classes, beside bin's kinrow).
// JVM starts are slow and the machine busy: the tests start few, with
// generous timeouts.
var (
	javaOnce sync.Once
	javaErr  error
	javaSkip string
)

type javaDirs struct{ jar, fw, tp, cc string }

func javaSetup(t *testing.T) javaDirs {
	t.Helper()
	d := javaDirs{
		jar: filepath.Join(binDir, javabridge.JarName),
		fw:  filepath.Join(binDir, "java", "fw"),
		tp:  filepath.Join(binDir, "java", "tp"),
		cc:  filepath.Join(binDir, "course-classes"),
	}
	javaOnce.Do(func() {
		for _, tool := range []string{"javac", "java", "jar", "make"} {
			if _, err := exec.LookPath(tool); err != nil {
				javaSkip = tool + " is not installed (make test installs a JDK through .ci/run; apt-get install default-jdk-headless)"
				return
			}
		}
		root := testbuild.Root()
		run := func(name string, args ...string) {
			if javaErr != nil {
				return
			}
			cmd := exec.Command(name, args...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				javaErr = fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
			}
		}
		sources := func(dir string) []string {
			var files []string
			filepath.WalkDir(filepath.Join(root, dir), func(p string, e os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".java") {
					files = append(files, p)
				}
				return nil
			})
			return files
		}
		run("make", "-s", "BIN="+binDir, d.jar)
		run("javac", append([]string{"--release", "17", "-d", d.fw}, sources("java/testframework")...)...)
		run("javac", append([]string{"--release", "17", "-cp", d.fw, "-d", d.tp}, sources("java/testplayers")...)...)
		run("make", "-s", "java-course", "FRAMEWORK="+d.fw, "COURSE_CLASSES="+d.cc)
	})
	if javaSkip != "" {
		t.Skip(javaSkip)
	}
	if javaErr != nil {
		t.Fatal(javaErr)
	}
	return d
}

// javaProcesses lists live JVMs started from this test binary's files
// (their command line names binDir).
func javaProcesses() []string {
	return liveProcesses(func(_ int, args []string) (string, bool) {
		return "", filepath.Base(args[0]) == "java" && strings.Contains(strings.Join(args, "\x00"), binDir)
	})
}

func checkNoJVM(t *testing.T) {
	t.Helper()
	checkNoneLeft(t, "JVMs", 5*time.Second, javaProcesses)
}

// javaManifests writes manifests for the test players (without the probe's
// JVM start: the kind is known) into a fresh bot directory.
func javaManifests(t *testing.T, d javaDirs, players map[string]string) string {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, class := range players {
		kind, rules := javabridge.ConnectX, []string{"connect4"}
		if strings.HasPrefix(class, "MNK") {
			kind, rules = javabridge.MNK, []string{"tictactoe"}
		}
		text, err := javabridge.Manifest(javabridge.Config{Name: name, Java: java, Jar: d.jar, ClassPath: []string{d.fw, d.tp},
			Player: javabridge.Player{Kind: kind, Class: "kinrow.testplayers." + class, JavaFeature: 17}, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".engine.toml"), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// kinrow java-manifest probes the player through the bridge and prints a
// manifest the host reads back and lists; a class that is missing or is no
// course player is refused with the reason.
func TestJavaManifestCommand(t *testing.T) {
	d := javaSetup(t)
	bots := t.TempDir()
	for _, tt := range []struct{ class, name, kind, rules string }{
		{"kinrow.testplayers.CXRandom", "", "ConnectX", "connect4"},
		{"kinrow.testplayers.MNKRandom", "tic", "MNKGame", "tictactoe"},
	} {
		args := []string{"java-manifest", "--classpath", d.fw + ":" + d.tp, "--player", tt.class, "--strength", "3"}
		if tt.name != "" {
			args = append(args, "--name", tt.name)
		}
		cmd := kinrowCmd(t, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("kinrow %v: %v\n%s", args, err, stderr.String())
		}
		name := tt.name
		if name == "" {
			name = "cxrandom"
		}
		text := stdout.String()
		if !strings.Contains(text, "("+tt.kind+")") || !strings.Contains(text, "save it as "+name+".engine.toml") {
			t.Errorf("manifest for %s:\n%s", tt.class, text)
		}
		path := filepath.Join(bots, name+".engine.toml")
		os.WriteFile(path, stdout.Bytes(), 0o644)
		m, err := manifest.Load(path, name)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if m.Protocol != manifest.Kinrow || m.Strength != 3 || !slices.Contains(m.Rules, mustRules(t, tt.rules)) {
			t.Errorf("manifest %+v", m)
		}
		if !slices.Contains(m.Command, d.jar+":"+d.fw+":"+d.tp) || m.Command[len(m.Command)-1] != tt.class {
			t.Errorf("command %q", m.Command)
		}
	}
	// kinrow-bots lists both.
	cmd := kinrowCmd(t)
	cmd.Env = append(cmd.Env, "KINROW_BOT_PATH="+bots)
	cmd.Stdin = strings.NewReader("kinrow-bots\nquit\n")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "cxrandom\n") || !strings.Contains(string(out), "tic\n") {
		t.Errorf("kinrow-bots: %v\n%s", err, out)
	}
	for _, tt := range []struct{ class, want string }{
		{"kinrow.testplayers.Nosuch", "player class kinrow.testplayers.Nosuch not found on the class path"},
		{"connectx.CXBoard", "connectx.CXBoard implements neither connectx.CXPlayer nor mnkgame.MNKPlayer"},
	} {
		cmd := kinrowCmd(t, "java-manifest", "--classpath", d.fw+":"+d.tp, "--player", tt.class)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), tt.want) || stdout.Len() != 0 {
			t.Errorf("%s: %v, stdout %q, stderr %q; want status 1 and %q", tt.class, err, stdout.String(), stderr.String(), tt.want)
		}
	}
	cmd = kinrowCmd(t, "java-manifest", "--player", "x.Y")
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != exitUsage {
		t.Errorf("no --classpath: %v", err)
	}
	checkNoJVM(t)
}

// Course players play kinrow's random bot through the bridge, at Connect-4
// and tic-tac-toe, to the end: one player instance per bridge, initPlayer
// once per game with the side and the time in whole seconds, every
// opponent's move reaching the player's private board (it throws
// otherwise), each bridge in a working directory of its own, removed when it
// quits, and no JVM left.
func TestJavaPlayersPlayMatches(t *testing.T) {
	d := javaSetup(t)
	dir := javaManifests(t, d, map[string]string{"cxrandom": "CXRandom", "mnkrandom": "MNKRandom", "cxprints": "CXPrints"})
	trace := filepath.Join(t.TempDir(), "trace")
	tmp := t.TempDir()
	for _, tt := range []struct {
		rules, bot string
		fresh      bool
	}{{"connect4", "cxrandom", false}, {"tictactoe", "mnkrandom", false}, {"connect4", "cxprints", false}, {"tictactoe", "mnkrandom", true}} {
		t.Run(fmt.Sprintf("%s/fresh=%t", tt.bot, tt.fresh), func(t *testing.T) {
			os.Remove(trace)
			pairs, recs, log := runJavaMatch(t, dir, []string{"KINROW_TEST_TRACE=" + trace, "TMPDIR=" + tmp},
				"--rules", tt.rules, "--bot", tt.bot, "--bot", "random", "--games", "2", "--movetime", "2s",
				"--bot-opt", fmt.Sprintf("%s:fresh=%t", tt.bot, tt.fresh),
				// The players write a trace, and the bridge its working
				// directory, where the test can see them: outside the
				// sandbox (TestJavaPlayerInSandbox plays inside it).
				"--sandbox=off")
			if len(pairs) != 1 || pairs[0].Games != 2 || len(recs) != 2 {
				t.Fatalf("pairings %+v, %d records", pairs, len(recs))
			}
			for _, rec := range recs {
				if rec.Reason != record.ReasonWin && rec.Reason != record.ReasonDraw {
					t.Errorf("game ended by %s: %s", rec.Reason, rec.Detail)
				}
			}
			// A player's prints, stdout included, go to the log, never the protocol.
			if tt.bot == "cxprints" && (!strings.Contains(log, "CXPrints thinking about") || !strings.Contains(log, "CXPrints on stderr") || !strings.Contains(log, "CXPrints on descriptor 1")) {
				t.Errorf("the player's prints are not in the log")
			}
			b, _ := os.ReadFile(trace)
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			// One instance (fresh: one per game), then initPlayer per game:
			// first for the game where it is x, with timeout_in_secs 1 (2 s
			// less a tenth, rounded down).
			var inits []string
			instances := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "new ") {
					instances++
				} else {
					inits = append(inits, l)
				}
			}
			if want := map[bool]int{false: 1, true: 2}[tt.fresh]; instances != want || len(inits) != 2 || !strings.HasPrefix(lines[0], "new ") {
				t.Fatalf("%d instances, want %d; trace:\n%s", instances, want, b)
			}
			dims := map[string]string{"connect4": "6 7 4", "tictactoe": "3 3 3"}[tt.rules]
			for i, rec := range recs {
				first := rec.Players.X == tt.bot
				instance := map[bool]int{false: 1, true: i + 1}[tt.fresh]
				want := fmt.Sprintf("init %d %s %t 1", instance, dims, first)
				if !strings.HasPrefix(inits[i], want) {
					t.Errorf("game %d (x %s): trace %q, want %q", i+1, rec.Players.X, inits[i], want)
				}
			}
			if cwd := regexp.MustCompile(`cwd (\S+)`).FindStringSubmatch(string(b)); tt.rules == "connect4" &&
				(cwd == nil || !strings.HasPrefix(cwd[1], filepath.Join(tmp, "kinrow-java-"+tt.bot+"."))) {
				t.Errorf("working directory: %v; want one under %s", cwd, tmp)
			}
			checkNoJVM(t)
			if left, _ := filepath.Glob(filepath.Join(tmp, "kinrow-java-*")); len(left) > 0 {
				t.Errorf("working directories left: %v", left)
			}
		})
	}
}

func mustRules(t *testing.T, s string) engine.Rules {
	t.Helper()
	r, err := engine.ParseRules(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runJavaMatch runs kinrow match with the bot directory dir and env added,
// JVM-sized start timeouts, and returns the summary's pairings, the records
// and kinrow's stderr.
func runJavaMatch(t *testing.T, dir string, env []string, args ...string) ([]pairing, []*record.Record, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "games.jsonl")
	cmd := kinrowCmd(t, append([]string{"match", "--out", out, "--format", "json", "--bot-start-timeout", "60s", "--log-level", "debug"}, args...)...)
	cmd.Env = append(append(cmd.Env, "KINROW_BOT_PATH="+dir), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kinrow match: %v\n%s", err, stderr.String())
	}
	var sum struct{ Pairings []pairing }
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
	}
	recs := readRecordsFile(t, out)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kinrow match stderr:\n%s", stderr.String())
		}
	})
	return sum.Pairings, recs, stderr.String()
}

// Misbehaving course players forfeit with the reason (the Java exception's
// first line, System.exit's status, the referee's timeout, the illegal
// move), every JVM is gone afterwards, and the game goes on with fresh ones.
func TestJavaMisbehavingPlayersForfeit(t *testing.T) {
	d := javaSetup(t)
	dir := javaManifests(t, d, map[string]string{
		"cxthrows": "CXThrows", "cxexit": "CXExit", "cxsleeps": "CXSleeps", "cxillegal": "CXIllegal", "mnkoccupied": "MNKOccupied",
	})
	want := map[string]struct {
		forfeit record.Forfeit
		detail  string
	}{
		"cxthrows":    {record.ForfeitProtocolError, "selectColumn threw java.lang.IllegalStateException: CXThrows gives up"},
		"cxexit":      {record.ForfeitProtocolError, "the player called System.exit(3) in selectColumn"},
		"cxsleeps":    {record.ForfeitTimeout, "timed out"},
		"cxillegal":   {record.ForfeitIllegalMove, "column 8 outside the board"},
		"mnkoccupied": {record.ForfeitIllegalMove, "cell is occupied"},
	}
	var recs []*record.Record
	_, r, _ := runJavaMatch(t, dir, nil, "--rules", "connect4", "--bot", "random", "--bot", "cxthrows", "--bot", "cxexit",
		"--bot", "cxsleeps", "--bot", "cxillegal", "--gauntlet", "--games", "2", "--movetime", "1s", "--concurrency", "2")
	recs = append(recs, r...)
	_, r, _ = runJavaMatch(t, dir, nil, "--rules", "tictactoe", "--bot", "mnkoccupied", "--bot", "random", "--games", "2", "--movetime", "1s")
	recs = append(recs, r...)
	seen := map[string]int{}
	for _, rec := range recs {
		bot := rec.Players.X
		if bot == "random" {
			bot = rec.Players.O
		}
		w := want[bot]
		seen[bot]++
		if rec.Reason != record.ReasonForfeit || rec.Forfeit != w.forfeit || !strings.Contains(rec.Detail, w.detail) ||
			rec.Winner == nil || *rec.Winner != "random" {
			t.Errorf("%s: %s %s %q; want a forfeit by %s saying %q", bot, rec.Reason, rec.Forfeit, rec.Detail, w.forfeit, w.detail)
		}
		if strings.Contains(rec.Detail, "second line") {
			t.Errorf("%s: the detail has more than the exception's first line: %q", bot, rec.Detail)
		}
	}
	for bot := range want {
		if seen[bot] != 2 {
			t.Errorf("%s played %d games, want 2", bot, seen[bot])
		}
	}
	checkNoJVM(t)
}

// Direction 2: kinrow's course players inside a course referee (the
// stand-in of java/testplayers) play whole games against test players, each
// answering within the referee's time, kinrow found through $KINROW or
// beside the class files, the bot through $KINROW_BOT or kinrow's default;
// no kinrow process is left when the referee's JVM ends.
func TestJavaCoursePlayersInCourseReferee(t *testing.T) {
	d := javaSetup(t)
	// An installation as make leaves it: kinrow, the real bots (none of the
	// misbehaving test bots of binDir) and course-classes beside them.
	inst := t.TempDir()
	for _, f := range append([]string{"kinrow"}, prefixed("kinrow-bot-", testbuild.Bots())...) {
		if err := os.Link(filepath.Join(binDir, f), filepath.Join(inst, f)); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("cp", "-r", d.cc, filepath.Join(inst, "course-classes")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	mute := filepath.Join(inst, "mute")
	if err := os.WriteFile(mute, []byte("#!/bin/sh\nexec sleep 120\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		secs  string
		env   []string
		games []string
		bot   string
	}{
		// 2 s: the first initPlayer starts kinrow and its bot, which under
		// a full parallel test run can take most of a second.
		{"KINROW and KINROW_BOT", "2", []string{"KINROW=" + filepath.Join(inst, "kinrow"), "KINROW_BOT=random"},
			[]string{"cx:6:7:4:kinrow.course.KinrowCXPlayer:kinrow.testplayers.CXRandom", "mnk:3:3:3:kinrow.testplayers.MNKRandom:kinrow.course.KinrowMNKPlayer"}, "--bot random"},
		// The default bot's choice starts every bot once, in initPlayer's time.
		{"beside the classes, default bot", "3", []string{"KINROW=", "KINROW_BOT="},
			[]string{"mnk:4:4:3:kinrow.course.KinrowMNKPlayer:kinrow.testplayers.MNKRandom", "cx:4:5:3:kinrow.testplayers.CXRandom:kinrow.course.KinrowCXPlayer"}, ""},
		// No kinrow, or one that never answers (killed at the end of
		// initPlayer's time): the players still answer legal moves in
		// time, saying why.
		{"no kinrow", "1", []string{"KINROW=" + filepath.Join(inst, "nosuch")},
			[]string{"cx:6:7:4:kinrow.course.KinrowCXPlayer:kinrow.testplayers.CXRandom", "mnk:3:3:3:kinrow.testplayers.MNKRandom:kinrow.course.KinrowMNKPlayer"}, "none"},
		{"kinrow never answers", "1", []string{"KINROW=" + mute},
			[]string{"cx:6:7:4:kinrow.course.KinrowCXPlayer:kinrow.testplayers.CXRandom", "mnk:3:3:3:kinrow.testplayers.MNKRandom:kinrow.course.KinrowMNKPlayer"}, "none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cp := d.fw + ":" + filepath.Join(inst, "course-classes") + ":" + d.tp
			cmd := exec.Command("java", append([]string{"-cp", cp, "kinrow.testplayers.Referee", tt.secs}, tt.games...)...)
			cmd.Dir = t.TempDir() // the test players write files where they run
			// kinrow is not on PATH here: $KINROW, or the one beside course-classes.
			cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin", "KINROW_BOT_PATH=", "KINROW_LOG=warn")
			cmd.Env = append(cmd.Env, tt.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			out := stdout.String()
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("referee stdout:\n%s\nstderr:\n%s", out, stderr.String())
				}
			})
			if err != nil {
				t.Fatalf("referee: %v", err)
			}
			results := regexp.MustCompile(`(?m)^RESULT (\S+) (WINP1|WINP2|DRAW) (\d+)$`).FindAllStringSubmatch(out, -1)
			if len(results) != len(tt.games) {
				t.Fatalf("%d results, want %d", len(results), len(tt.games))
			}
			kinrowMoves := 0
			for _, m := range regexp.MustCompile(`(?m)^TIME kinrow.* (\d+)$`).FindAllStringSubmatch(out, -1) {
				kinrowMoves++
				if ms, _ := strconv.Atoi(m[1]); ms >= 1000*int(tt.secs[0]-'0') {
					t.Errorf("a kinrow move took %d ms of the referee's %s s", ms, tt.secs)
				}
			}
			if kinrowMoves < 2*len(tt.games) {
				t.Errorf("%d kinrow moves timed", kinrowMoves)
			}
			starts := regexp.MustCompile(`started (\S+) serve --rules \S+( --bot \S+)? \(pid (\d+)\)`).FindAllStringSubmatch(stderr.String(), -1)
			if tt.bot == "none" {
				if n := strings.Count(stderr.String(), "cannot start a game on kinrow"); n != len(tt.games) {
					t.Errorf("%d players said they cannot start kinrow, want %d", n, len(tt.games))
				}
				for _, s := range starts {
					pid, _ := strconv.Atoi(s[3])
					if st := testproc.State(pid); st != "" && st != "Z" {
						t.Errorf("the mute kinrow (pid %d) still runs", pid)
					}
				}
				return
			}
			// Started once per player instance, with the bot asked for; no
			// fallback move was needed.
			if len(starts) != len(tt.games) {
				t.Fatalf("%d kinrow processes started, want %d", len(starts), len(tt.games))
			}
			for _, s := range starts {
				if s[1] != filepath.Join(inst, "kinrow") || strings.TrimSpace(s[2]) != tt.bot {
					t.Errorf("started %q with %q, want %s with %q", s[1], s[2], filepath.Join(inst, "kinrow"), tt.bot)
				}
				pid, _ := strconv.Atoi(s[3])
				if st := testproc.State(pid); st != "" && st != "Z" {
					t.Errorf("kinrow (pid %d) still runs after the referee's JVM ended", pid)
				}
			}
			if strings.Contains(stderr.String(), "centre-most") {
				t.Errorf("a kinrow player fell back to its own moves")
			}
			checkNoEngineProcesses(t, inst)
		})
	}
	checkNoJVM(t)
}

func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// The bridge speaks the kinrow protocol as the host's engines must: ids
// echoed, comments and blank lines ignored, refusals with the reason, the
// coordinates mapped as docs/BOTS.md draws them (the top-left cell of an
// m,n,k board is MNKGame's (0,0), kinrow's a3 on tic-tac-toe), a player's
// stdout kept off the protocol, quit answered and the JVM gone.
func TestJavaBridgeProtocol(t *testing.T) {
	d := javaSetup(t)
	cmd := exec.Command("java", "-cp", d.jar+":"+d.fw+":"+d.tp, javabridge.MainClass, "--player", "kinrow.testplayers.MNKCorner")
	cmd.Dir = t.TempDir()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	script := []struct{ send, want string }{
		{"12 protocol_version", "=12 2"},
		{"# a comment, then a blank line", ""},
		{"   ", ""},
		{"genmove x", "? no game: send rules first"},
		{"rules connect4", "? the player kinrow.testplayers.MNKCorner plays mnk rules, not connectx:6x7x4"},
		{"rules\ttictactoe  # tabs and comments", "="},
		{"kinrow-option fresh maybe", "? option fresh: want true or false, got maybe"},
		{"kinrow-option depth 3", "? unknown option depth: accepted are fresh"},
		{"kinrow-option fresh false", "="},
		{"kinrow-movetime 900", "="},
		{"kinrow-side x", "="},
		{"genmove o", "? illegal move: o is not to move"},
		{"3 genmove x", "=3 a3"},
		{"play o a3", "? illegal move: a3 is occupied"},
		{"play o d1", "? illegal move: column of d1 off the board of 3 columns"},
		{"play o a2", "="},
		{"genmove x", "= b3"},
		{"undo", "="},
		{"undo", "="},
		{"play o c1", "="},
		{"genmove x", "= b3"},
		// Past 25 columns the letters go on as aa, ab, … (ae: column 30).
		{"rules mnk:5x30x4", "="},
		{"kinrow-side x", "="},
		{"genmove x", "= a5"},
		{"play o ae1", "="},
		{"genmove x", "= b5"},
		{"play o af1", "? illegal move: column of af1 off the board of 30 columns"},
		{"frobnicate", "? unknown command"},
		{"quit", "="},
	}
	for _, s := range script {
		fmt.Fprintln(in, s.send)
	}
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bridge: %v\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the bridge did not quit\n%s", stderr.String())
	}
	var want []string
	for _, s := range script {
		if s.want != "" {
			want = append(want, s.want)
		}
	}
	got := strings.Split(strings.TrimSuffix(stdout.String(), "\n\n"), "\n\n")
	if !slices.Equal(got, want) {
		t.Errorf("answers:\n%s\nwant:\n%s\nstderr:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stderr.String())
	}
	if !strings.Contains(stderr.String(), "initPlayer(3, 3, 3, true, 1) done: mnkrandom") {
		t.Errorf("initPlayer not logged as run at kinrow-side:\n%s", stderr.String())
	}
}

// A bridged player is an engine like any other under the referee's
// containment: its JVM is stopped (state T) while the opponent thinks.
func TestJavaPlayerSuspendedWhileOpponentThinks(t *testing.T) {
	d := javaSetup(t)
	dir := javaManifests(t, d, map[string]string{"cxrandom": "CXRandom"})
	stopped := make(chan bool, 1)
	done := make(chan struct{})
	go func() {
		seen := false
		defer func() { stopped <- seen }()
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			for _, p := range javaProcesses() {
				pid, _ := strconv.Atoi(strings.Fields(p)[0])
				if testproc.State(pid) == "T" || procrunFrozen(pid) { // stopped, or frozen in its cgroup
					seen = true
				}
			}
		}
	}()
	_, recs, _ := runJavaMatch(t, dir, nil, "--rules", "connect4", "--bot", "cxrandom", "--bot", "alphabeta", "--games", "2", "--movetime", "500ms")
	close(done)
	if !<-stopped {
		t.Errorf("the JVM was never seen stopped while alphabeta thought")
	}
	for _, rec := range recs {
		if rec.Reason == record.ReasonForfeit && rec.Winner != nil && *rec.Winner != "cxrandom" {
			t.Errorf("the bridged player forfeited: %s", rec.Detail)
		}
	}
	checkNoJVM(t)
}
