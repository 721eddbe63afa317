package pluginbot

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// binDir holds the bots built by TestMain (test-only package state).
var binDir string

func TestMain(m *testing.M) {
	testbuild.Main(m, "kinrow-pluginbot-", &binDir, func(dir string) error {
		os.Setenv(procrun.BoxEnv, filepath.Join(dir, "kinrow-box"))
		return testbuild.PluginBots(dir, brokenDir, testBots...)
	})
}

// testBots are the test bots TestMain builds (a platform's test files add
// theirs).
var testBots = []string{"hang", "clockreport", "bigmove", "v1bot", "badstream", "spinner", "flood"}

// brokenDir (under binDir) holds kinrow-bot-zzz, a bot that never
// completes the plugin handshake (see testbuild.PluginBots).
const brokenDir = "broken"

// testLoader starts the bots TestMain built (kinrow-bot-NAME in its
// directories) through a Runner: what a test of the runner needs of the
// registry (host/registry), without it.
type testLoader struct {
	*Runner
	dirs []string
}

// loaderConfig sets up a testLoader: the Runner's Config and the
// directories to find bots in.
type loaderConfig struct {
	Dirs        []string
	Logger      hclog.Logger
	Containment Containment
}

func newTestLoader(cfg loaderConfig) (*testLoader, error) {
	r, err := NewRunner(Config{Logger: cfg.Logger, Containment: cfg.Containment})
	if err != nil {
		return nil, err
	}
	return &testLoader{Runner: r, dirs: cfg.Dirs}, nil
}

// newLoader is a testLoader of the bots TestMain built, closed at the end
// of the test.
func newLoader(t testing.TB) *testLoader { return loaderWith(t, loaderConfig{}) }

// loaderWith is newLoader set up by cfg (its Dirs, when nil, the bots
// TestMain built).
func loaderWith(t testing.TB, cfg loaderConfig) *testLoader {
	t.Helper()
	if cfg.Dirs == nil {
		cfg.Dirs = []string{binDir}
	}
	l, err := newTestLoader(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

// startBot starts bot name by l, under its own name, closed at the end of
// the test.
func startBot(t *testing.T, l *testLoader, name string, opts map[string]string) *Bot {
	t.Helper()
	b, err := l.Start(context.Background(), name, name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// connect4 attaches x and o (o may be nil) to a new Connect-4 game under
// clock.
func connect4(t *testing.T, clock referee.Clock, x, o referee.Player) *referee.Game {
	t.Helper()
	g := referee.New(engine.Connect4(), referee.Config{Clock: clock})
	for c, p := range []referee.Player{x, o} {
		if p == nil {
			continue
		}
		if err := g.Attach(context.Background(), engine.Color(c), p); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// Start starts bot name, found in l's directories, as display.
func (l *testLoader) Start(ctx context.Context, name, display string, opts map[string]string) (*Bot, error) {
	for _, d := range l.dirs {
		path := filepath.Join(d, "kinrow-bot-"+name)
		if _, err := os.Stat(path); err == nil {
			return l.Runner.Start(ctx, Spec{Name: name, Display: display, Path: path, Options: opts})
		}
	}
	return nil, fmt.Errorf("no bot %s in %v", name, l.dirs)
}

// Load is Start as a referee.Player (match.Loader).
func (l *testLoader) Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error) {
	return l.Start(ctx, name, display, opts)
}

var alive = testproc.Alive

func TestHungBotIsKilledAtOnce(t *testing.T) {
	l := newLoader(t)
	ctx := context.Background()
	b, err := l.Start(ctx, "hang", "hang", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.NewGame(ctx, referee.Setup{Rules: engine.Connect4(), Color: engine.X}); err != nil {
		t.Fatal(err)
	}
	callCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = b.GenMove(callCtx, referee.NewMoveRequest(engine.X, time.Now().Add(100*time.Millisecond), 0, [2]time.Duration{}))
	if err == nil || time.Since(start) > time.Second {
		t.Fatalf("GenMove of a hung bot: %v after %v", err, time.Since(start))
	}
	start = time.Now()
	b.Kill()
	if took := time.Since(start); took > killTimeout {
		t.Errorf("Kill took %v", took)
	}
}

func TestNoGoroutineOrDescriptorLeaks(t *testing.T) {
	l := newLoader(t)
	ctx := context.Background()
	cycle := func() {
		b, err := l.Start(ctx, "random", "random", map[string]string{"seed": "1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.NewGame(ctx, referee.Setup{Rules: engine.Connect4(), Color: engine.X}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.GenMove(ctx, referee.NewMoveRequest(engine.X, time.Now().Add(time.Second), 0, [2]time.Duration{})); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	cycle()
	settle := func() (int, int) {
		time.Sleep(200 * time.Millisecond)
		runtime.GC()
		fds, _ := os.ReadDir("/proc/self/fd")
		return runtime.NumGoroutine(), len(fds)
	}
	g0, f0 := settle()
	for i := 0; i < 10; i++ {
		cycle()
	}
	g1, f1 := settle()
	if g1 > g0+2 || f1 > f0+2 {
		t.Errorf("after 10 start/close cycles: goroutines %d -> %d, fds %d -> %d", g0, g1, f0, f1)
	}
	left, _ := filepath.Glob(filepath.Join(l.SocketDir(), "*"))
	if len(left) != 0 {
		t.Errorf("sockets left behind: %v", left)
	}
}

// percentiles reports the median and p99 of ds as benchmark metrics.
func percentiles(b *testing.B, ds []time.Duration) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if len(ds) == 0 {
		return
	}
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), "median-µs")
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkRoundTrip measures, in one run, a bare gRPC unary call to a bot
// (Info), the plugin GenMove round trip (host→bot→host, streaming), and the
// referee's whole GenMove (deadline, checks, recording, notifying both bots),
// so the host's overhead is their difference.
func BenchmarkRoundTrip(b *testing.B) {
	ctx := context.Background()
	bot := startRandom(b, newLoader(b))
	b.Run("pipe-echo", func(b *testing.B) { benchPipeEcho(b) })
	rpc, err := bot.client.Client()
	if err != nil {
		b.Fatal(err)
	}
	unary := botapi.NewGRPCClient(rpc.(*plugin.GRPCClient).Conn) // version 1's Info: a bare unary call
	b.Run("unary-info", func(b *testing.B) {
		ds := make([]time.Duration, 0, b.N)
		for b.Loop() {
			t0 := time.Now()
			if _, err := unary.Info(ctx); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		percentiles(b, ds)
	})
	b.Run("plugin-genmove", func(b *testing.B) { genMoveRoundTrips(b, bot) })
	b.Run("referee-genmove", func(b *testing.B) {
		g := referee.New(engine.Connect4(), referee.Config{})
		if err := g.Attach(ctx, engine.X, bot); err != nil {
			b.Fatal(err)
		}
		ds := make([]time.Duration, 0, b.N)
		for b.Loop() {
			t0 := time.Now()
			out, err := g.GenMove(ctx, engine.X)
			if err != nil || !out.Played {
				b.Fatalf("%v %+v", err, out)
			}
			ds = append(ds, time.Since(t0))
			if err := g.Undo(ctx); err != nil { // back to x to move (one more RPC, untimed)
				b.Fatal(err)
			}
			g.Settle(ctx) // the undo reaches the bot in the background: keep it untimed
		}
		percentiles(b, ds)
	})
}

// benchPipeEcho measures a line written to cat's stdin and read back from
// its stdout: the floor of any exchange between two processes.
func benchPipeEcho(b *testing.B) {
	cmd := exec.Command("cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	line := []byte("genmove x\n")
	buf := make([]byte, 64)
	ds := make([]time.Duration, 0, b.N)
	for b.Loop() {
		t0 := time.Now()
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		for n := 0; n < len(line); {
			k, err := out.Read(buf[n:])
			if err != nil {
				b.Fatal(err)
			}
			n += k
		}
		ds = append(ds, time.Since(t0))
	}
	percentiles(b, ds)
}

// BenchmarkStart measures a bot's start-up: launch to ready (handshake and
// Info), then a graceful close.
func BenchmarkStart(b *testing.B) { benchLaunch(b, newLoader(b)) }

// benchLaunch times b.N launches of the random bot by l, to ready, each
// closed after (medians and p99).
func benchLaunch(b *testing.B, l *testLoader) {
	ctx := context.Background()
	b.ReportAllocs()
	ds := make([]time.Duration, 0, b.N)
	for b.Loop() {
		t0 := time.Now()
		bot, err := l.Start(ctx, "random", "random", nil)
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		bot.Close()
	}
	percentiles(b, ds)
}

// benchGenMove times b.N plugin GenMove round trips (host→bot→host) of the
// random bot started by l, each move taken back after.
func benchGenMove(b *testing.B, l *testLoader) { genMoveRoundTrips(b, startRandom(b, l)) }

// startRandom starts the random bot by l (seed 1), closed at the end of
// the benchmark, in a Connect-4 game as X.
func startRandom(b *testing.B, l *testLoader) *Bot {
	ctx := context.Background()
	bot, err := l.Start(ctx, "random", "random", map[string]string{"seed": "1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(bot.Close)
	if err := bot.NewGame(ctx, referee.Setup{Rules: engine.Connect4(), Color: engine.X}); err != nil {
		b.Fatal(err)
	}
	return bot
}

// genMoveRoundTrips times b.N plugin GenMove round trips of bot, each move
// taken back after (untimed).
func genMoveRoundTrips(b *testing.B, bot *Bot) {
	ctx := context.Background()
	b.ReportAllocs()
	ds := make([]time.Duration, 0, b.N)
	for b.Loop() {
		t0 := time.Now()
		if _, err := bot.GenMove(ctx, referee.NewMoveRequest(engine.X, time.Now().Add(time.Second), 0, [2]time.Duration{})); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		if err := bot.Undo(ctx); err != nil { // the bot played it; take it back
			b.Fatal(err)
		}
	}
	percentiles(b, ds)
}
