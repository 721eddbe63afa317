package javabridge_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/javabridge"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/registry"
	"github.com/kinrow/kinrow/internal/testbuild"
)

// TestBridgeFigures measures, for docs/PERFORMANCE.md, in one run: the
// start-up of a course player through the bridge (launch to ready: the JVM
// answering protocol_version; then its first game's setup, initPlayer)
// beside the Go plugin bot random, and the time per move of each as the
// host sees it (a random mover on both sides, so nearly all of it is the
// path to the bot and back). scripts/java-bench.sh runs it.
func TestBridgeFigures(t *testing.T) {
	if os.Getenv("KINROW_JAVA_FIGURES") == "" {
		t.Skip("figures for docs/PERFORMANCE.md: run scripts/java-bench.sh")
	}
	for _, tool := range []string{"javac", "java", "jar", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " is not installed")
		}
	}
	root, dir := testbuild.Root(), t.TempDir()
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	srcs := func(d string) []string {
		files, _ := filepath.Glob(filepath.Join(root, d, "*", "*.java"))
		more, _ := filepath.Glob(filepath.Join(root, d, "*", "*", "*.java"))
		return append(files, more...)
	}
	fw, tp := filepath.Join(dir, "fw"), filepath.Join(dir, "tp")
	run("make", "-s", "BIN="+dir, filepath.Join(dir, javabridge.JarName))
	run("javac", append([]string{"--release", "17", "-d", fw}, srcs("java/testframework")...)...)
	run("javac", append([]string{"--release", "17", "-cp", fw, "-d", tp}, srcs("java/testplayers")...)...)
	run("go", "build", "-o", filepath.Join(dir, "kinrow-bot-random"), "./bots/random")
	java, err := javabridge.FindJava()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("java", "-version").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	text, err := javabridge.Manifest(javabridge.Config{Name: "cxrandom", Java: java, Jar: filepath.Join(dir, javabridge.JarName),
		ClassPath: []string{fw, tp}, Player: javabridge.Player{Kind: javabridge.ConnectX, Class: "kinrow.testplayers.CXRandom", JavaFeature: 17},
		Rules: []string{"connect4"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cxrandom.engine.toml"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	loader, err := registry.New(registry.Config{Finder: botpath.Default(dir, ""), StartTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer loader.Close()
	t.Logf("%s", strings.SplitN(string(out), "\n", 2)[0])

	const starts, games = 10, 150
	ctx := context.Background()
	rules := engine.Connect4()
	clock := referee.Clock{MoveTime: time.Second}
	for _, bot := range []string{"random", "cxrandom"} {
		var ready, setup, moves []time.Duration
		for i := range starts {
			t0 := time.Now()
			p, err := loader.Load(ctx, bot, bot, nil)
			if err != nil {
				t.Fatal(err)
			}
			ready = append(ready, time.Since(t0))
			t1 := time.Now()
			if err := p.NewGame(ctx, referee.Setup{Rules: rules, Color: engine.X, Clock: clock}); err != nil {
				t.Fatal(err)
			}
			setup = append(setup, time.Since(t1))
			if i == 0 { // one process plays the games of the move figures
				moves = playGames(t, p, rules, clock, games)
			}
			p.Close()
		}
		t.Logf("%-8s start-up to ready: median %s, max %s; first game set up (initPlayer): median %s", bot,
			ms(pct(ready, 50)), ms(pct(ready, 100)), ms(pct(setup, 50)))
		t.Logf("%-8s per move (%d moves): median %s, p99 %s", bot, len(moves), ms(pct(moves, 50)), ms(pct(moves, 99)))
		fmt.Printf("FIGURE %s ready_median=%s ready_max=%s setup_median=%s move_median=%s move_p99=%s moves=%d\n", bot,
			ms(pct(ready, 50)), ms(pct(ready, 100)), ms(pct(setup, 50)), ms(pct(moves, 50)), ms(pct(moves, 99)), len(moves))
	}
}

// playGames plays p (as x, then o) against random moves made here and
// returns the time of each of p's moves, GenMove's round trip.
func playGames(t *testing.T, p referee.Player, rules engine.Rules, clock referee.Clock, games int) []time.Duration {
	ctx := context.Background()
	var took []time.Duration
	for g := range games {
		me := engine.Color(g % 2)
		if g > 0 {
			if err := p.NewGame(ctx, referee.Setup{Rules: rules, Color: me, Clock: clock}); err != nil {
				t.Fatal(err)
			}
		}
		pos := engine.NewPosition(rules)
		for pos.Result() == engine.Open {
			if pos.ToMove() == me {
				t0 := time.Now()
				ans, err := p.GenMove(ctx, referee.NewMoveRequest(me, t0.Add(clock.MoveTime), clock.MoveTime, [2]time.Duration{}))
				took = append(took, time.Since(t0))
				if err != nil {
					t.Fatal(err)
				}
				m, err := rules.ParseMove(ans.Move)
				if err == nil {
					err = pos.Apply(m)
				}
				if err != nil {
					t.Fatalf("move %q: %v", ans.Move, err)
				}
				continue
			}
			legal := pos.LegalMoves(nil)
			m := legal[rand.IntN(len(legal))]
			pos.Play(m)
			if err := p.Play(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return took
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
