package registry

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
)

// binDir holds the bots built by TestMain (test-only package state).
var binDir string

func TestMain(m *testing.M) {
	testbuild.Main(m, "kinrow-registry-", &binDir, func(dir string) error {
		os.Setenv(procrun.BoxEnv, filepath.Join(dir, "kinrow-box"))
		return testbuild.PluginBots(dir, brokenDir, "hang")
	})
}

// brokenDir (under binDir) holds kinrow-bot-zzz, a bot that never
// completes the plugin handshake (see testbuild.PluginBots).
const brokenDir = "broken"

func newRegistry(t testing.TB) *Registry {
	t.Helper()
	l, err := New(Config{Finder: botpath.Finder{Dirs: []string{binDir}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

// shortTemp is a temporary directory with a short path (unix sockets have
// little room).
var shortTemp = testbuild.ShortTemp

func TestDefaultIsStrongestThatPlays(t *testing.T) {
	l := newRegistry(t)
	name, err := l.Default(context.Background(), engine.Connect4())
	if err != nil {
		t.Fatal(err)
	}
	if name == "hang" { // test bots have negative strength
		t.Errorf("default bot is the test bot %q", name)
	}
	// Strength per kind of game: gomoku declares itself the strongest at
	// m,n,k only, so each kind of game gets its own default.
	gomoku, _ := engine.ParseRules("gomoku")
	if g, err := l.Default(context.Background(), gomoku); err != nil || g != "gomoku" || name != "alphabeta" {
		t.Errorf("defaults: connect4 %q, gomoku %q (%v); want alphabeta and gomoku", name, g, err)
	}
	empty, err := New(Config{Finder: botpath.Finder{Dirs: []string{t.TempDir()}}})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if _, err := empty.Default(context.Background(), engine.Connect4()); err == nil {
		t.Errorf("a loader with no bots found a default")
	}
}

// TestDefaultDoesNotWaitOnABrokenBot puts a bot that never completes its
// handshake (kinrow-bot-zzz) beside a good one: the default is the good
// one, chosen within the probe timeout, not the start timeout, and the
// next choice does not wait on the broken bot again.
func TestDefaultDoesNotWaitOnABrokenBot(t *testing.T) {
	dir := t.TempDir()
	for name, target := range map[string]string{
		"kinrow-bot-random": filepath.Join(binDir, "kinrow-bot-random"),
		"kinrow-bot-zzz":    filepath.Join(binDir, brokenDir, "kinrow-bot-zzz"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	const startTimeout, probeTimeout = 30 * time.Second, 2 * time.Second
	l, err := New(Config{Finder: botpath.Finder{Dirs: []string{dir}}, StartTimeout: startTimeout, ProbeTimeout: probeTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	for i := range 2 {
		start := time.Now()
		name, err := l.Default(ctx, engine.Connect4())
		took := time.Since(start)
		if err != nil || name != "random" {
			t.Errorf("choice %d: Default = %q, %v; want random", i+1, name, err)
		}
		// Far from the start timeout: the probe timeout plus a margin for a
		// loaded machine.
		if took > probeTimeout+5*time.Second {
			t.Errorf("choice %d took %v: it waited on the broken bot", i+1, took)
		}
		// The second choice does not wait again: the good bot is cached and
		// the broken one was passed over already.
		if i == 1 && took >= probeTimeout {
			t.Errorf("the second choice took %v: it waited on the broken bot again", took)
		}
	}
	// Asked by name, the broken bot is waited for up to the start timeout
	// (bounded here by the caller's context).
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := l.Info(short, "zzz"); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("Info(zzz) = %v, want the caller's deadline", err)
	}
}

// TestFirstGenmoveDoesNotWaitOnABrokenBot runs the real kinrow serve with
// a bot that never handshakes on its bot path (and a start timeout of 20 s):
// the first genmove, which chooses the default bot, answers within the
// probe timeout plus a margin, not after the start timeout.
func TestFirstGenmoveDoesNotWaitOnABrokenBot(t *testing.T) {
	dir := shortTemp(t)
	if err := os.Symlink(filepath.Join(binDir, brokenDir, "kinrow-bot-zzz"), filepath.Join(dir, "kinrow-bot-zzz")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "kinrow"), "serve", "--movetime", "200ms", "--bot-start-timeout", "20s")
	cmd.Env = append(os.Environ(), "TMPDIR="+dir, "KINROW_BOT_PATH="+dir)
	cmd.Stdin = strings.NewReader("genmove x\nquit\n")
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	if err != nil || !strings.HasPrefix(string(out), "= ") {
		t.Fatalf("kinrow serve: %v, output %q", err, out)
	}
	if took > DefaultProbeTimeout+5*time.Second {
		t.Errorf("the first genmove took %v with a broken bot on the path", took)
	}
}

// alive reports whether process pid runs (a zombie does not).
var alive = testproc.Alive
