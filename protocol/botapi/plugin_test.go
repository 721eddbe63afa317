//go:build linux

// Linux only: the bots run in their own process group with a parent-death
// signal (Pdeathsig), and are stopped and killed with signals.

package botapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// binDir holds the bots TestMain builds: random and test bots.
var binDir string

func TestMain(m *testing.M) {
	testbuild.Main(m, "kinrow-botapi-", &binDir, func(dir string) error {
		return testbuild.Packages(dir, "./bots/random", "./internal/testbots/junk", "./internal/testbots/oldproto",
			"./internal/testbots/crash", "./internal/testbots/late")
	})
}

// devnullRunner runs a bot the way a host should: stdin /dev/null (go-plugin
// sets the configured Cmd's Stdin to the host's own stdin, so it needs a
// RunnerFunc), its own process group, SIGKILL when the host dies.
type devnullRunner struct {
	cmd            *exec.Cmd
	stdout, stderr io.ReadCloser
}

func newDevnullRunner(path string, env []string) (*devnullRunner, error) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path)
	cmd.Env = env
	cmd.Stdin = devnull
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	r := &devnullRunner{cmd: cmd}
	if r.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if r.stderr, err = cmd.StderrPipe(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *devnullRunner) Start(context.Context) error {
	defer r.cmd.Stdin.(*os.File).Close()
	return r.cmd.Start()
}
func (r *devnullRunner) Wait(context.Context) error { return r.cmd.Wait() }
func (r *devnullRunner) Kill(context.Context) error {
	if r.cmd.Process == nil {
		return nil
	}
	syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
	return nil
}
func (r *devnullRunner) Stdout() io.ReadCloser                            { return r.stdout }
func (r *devnullRunner) Stderr() io.ReadCloser                            { return r.stderr }
func (r *devnullRunner) Name() string                                     { return r.cmd.Path }
func (r *devnullRunner) ID() string                                       { return strconv.Itoa(r.cmd.Process.Pid) }
func (r *devnullRunner) Diagnose(context.Context) string                  { return "" }
func (r *devnullRunner) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (r *devnullRunner) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

// proc is a bot process started the way the host starts one.
type proc struct {
	client  *plugin.Client
	runner  *devnullRunner
	bot     botapi.Bot
	sockDir string
}

// clientConfig is the host's configuration for bot binary name.
func clientConfig(name, sockDir string, run **devnullRunner) *plugin.ClientConfig {
	return &plugin.ClientConfig{
		HandshakeConfig:  botapi.Handshake(),
		VersionedPlugins: botapi.VersionedPluginSets(nil),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     10 * time.Second,
		Logger:           hclog.NewNullLogger(),
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: sockDir},
		RunnerFunc: func(_ hclog.Logger, cmd *exec.Cmd, _ string) (runner.Runner, error) {
			r, err := newDevnullRunner(filepath.Join(binDir, name), cmd.Env)
			*run = r
			return r, err
		},
	}
}

// dispense starts bot name and returns it.
func dispense(cfg *plugin.ClientConfig) (*plugin.Client, botapi.Bot, error) {
	client := plugin.NewClient(cfg)
	rpc, err := client.Client()
	if err != nil {
		client.Kill()
		return nil, nil, err
	}
	raw, err := rpc.Dispense(botapi.PluginName)
	if err != nil {
		client.Kill()
		return nil, nil, err
	}
	return client, raw.(botapi.Bot), nil
}

func startRandom(tb testing.TB) *proc { return start(tb, "random") }

func start(tb testing.TB, name string) *proc { return startVersion(tb, name, 0) }

// startVersion starts bot name speaking plugin protocol version (0: the
// highest both speak).
func startVersion(tb testing.TB, name string, version int) *proc {
	tb.Helper()
	p := &proc{sockDir: tb.TempDir()}
	cfg := clientConfig(name, p.sockDir, &p.runner)
	if version != 0 {
		cfg.VersionedPlugins = map[int]plugin.PluginSet{version: botapi.VersionPluginSet(version, nil)}
	}
	client, bot, err := dispense(cfg)
	if err != nil {
		tb.Fatalf("start %s: %v", name, err)
	}
	p.client, p.bot = client, bot
	tb.Cleanup(client.Kill)
	return p
}

// TestRandomRoundTrip plays through both plugin protocol versions: an RPC
// per request (1) and the Session stream (2).
func TestRandomRoundTrip(t *testing.T) {
	for _, v := range []int{botapi.Version1, botapi.Version2} {
		t.Run(fmt.Sprintf("version%d", v), func(t *testing.T) { testRandomRoundTrip(t, v) })
	}
}

func testRandomRoundTrip(t *testing.T, version int) {
	p := startVersion(t, "random", version)
	ctx := context.Background()
	bot := p.bot
	if got := p.client.NegotiatedVersion(); got != version {
		t.Errorf("negotiated version %d, want %d", got, version)
	}

	if fd0, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", p.runner.cmd.Process.Pid)); fd0 != os.DevNull {
		t.Errorf("the bot's stdin is %q, want %s", fd0, os.DevNull)
	}

	info, err := bot.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "random" || info.Strength != 0 || !slices.Equal(info.Kinds, engine.Variants()) ||
		len(info.Options) != 1 || info.Options[0].Name != "seed" || info.Options[0].Type != botapi.OptionInt {
		t.Errorf("Info = %+v", info)
	}

	bad := []struct {
		game botapi.Game
		want string
	}{
		{botapi.Game{Rules: "connect4", Options: map[string]string{"tt": "3"}}, "unknown option tt: accepted are seed"},
		{botapi.Game{Rules: "connect4", Options: map[string]string{"seed": "x"}}, "option seed=x: want an integer"},
		{botapi.Game{Rules: "mnk:0x5x3"}, "rows 0 out of range"},
		{botapi.Game{Rules: "chess"}, "unknown rules"},
		{botapi.Game{Rules: "connect4", Color: "red"}, "invalid color"},
		{botapi.Game{Rules: "connect4", Moves: []string{"4", "8"}}, "move 2 (8)"},
	}
	for _, b := range bad {
		err := bot.NewGame(ctx, b.game)
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), b.want) {
			t.Errorf("NewGame(%+v) = %v (%v); want InvalidArgument containing %q", b.game, err, status.Code(err), b.want)
		}
		var we *botapi.Error
		if !errors.As(err, &we) || we.Op != "newgame" || !strings.Contains(we.Message(), b.want) {
			t.Errorf("NewGame error %#v is not a *botapi.Error with the bot's message", err)
		}
	}

	rules := engine.Connect4()
	pos := engine.NewPosition(rules)
	if err := bot.NewGame(ctx, botapi.Game{
		Rules: "connectx:6x7x4", Color: "x", Options: map[string]string{"seed": "42"}, Moves: []string{"4", "4"},
		Time: botapi.TimeControl{MoveTime: time.Second},
	}); err != nil {
		t.Fatal(err)
	}
	pos.Play(3)
	pos.Play(3)
	if version == botapi.Version1 {
		if err := bot.Play(ctx, "9"); status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "illegal move 9") {
			t.Errorf("Play 9 = %v", err)
		}
	} else {
		// Play is not waited for: its failure comes with the next request,
		// and the session is over (the bot's game is not the host's).
		if err := bot.Play(ctx, "9"); err != nil {
			t.Errorf("Play 9 = %v, want it sent without waiting", err)
		}
		_, err := bot.GenMove(ctx, botapi.GenMoveRequest{}, nil)
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "illegal move 9") ||
			!strings.Contains(err.Error(), "failed to take move 9") {
			t.Errorf("GenMove after Play 9 = %v", err)
		}
		if err := bot.Play(ctx, "1"); err == nil {
			t.Errorf("Play after a failed Play = nil, want the session over")
		}
		p.client.Kill()
		p = startVersion(t, "random", version)
		bot = p.bot
		if err := bot.NewGame(ctx, botapi.Game{
			Rules: "connectx:6x7x4", Color: "x", Options: map[string]string{"seed": "42"}, Moves: []string{"4", "4"},
			Time: botapi.TimeControl{MoveTime: time.Second},
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := bot.Play(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if err := bot.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	for pos.Result() == engine.Open {
		deadline := time.Now().Add(500 * time.Millisecond)
		dctx, cancel := context.WithDeadline(ctx, deadline.Add(100*time.Millisecond))
		move, err := bot.GenMove(dctx, botapi.GenMoveRequest{Deadline: deadline, Budget: 500 * time.Millisecond}, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Errorf("GenMove answered after its deadline")
		}
		m, err := rules.ParseMove(move)
		if err == nil {
			err = pos.Apply(m)
		}
		if err != nil {
			t.Fatalf("GenMove answered %q: %v\n%s", move, err, pos.Diagram())
		}
		if err := bot.Play(ctx, move); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bot.GenMove(ctx, botapi.GenMoveRequest{}, nil); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("GenMove after the game ended = %v, want FailedPrecondition", err)
	}

	// A call whose context expired fails with DeadlineExceeded.
	if err := bot.NewGame(ctx, botapi.Game{Rules: "gomoku"}); err != nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	_, err = bot.GenMove(dctx, botapi.GenMoveRequest{}, nil)
	cancel()
	if !botapi.IsDeadline(err) || !errors.Is(err, context.DeadlineExceeded) || botapi.IsDisconnect(err) {
		t.Errorf("GenMove past its deadline = %v", err)
	}

	// random does not solve.
	s, err := bot.Solve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(botapi.SolveRequest{ID: 1, Rules: "connect4"}); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if _, err := s.Recv(); status.Code(err) != codes.Unimplemented {
		t.Errorf("Solve on random = %v, want Unimplemented", err)
	}

	p.client.Kill()
	if !p.client.Exited() {
		t.Errorf("the bot did not exit")
	}
	if left, _ := os.ReadDir(p.sockDir); len(left) != 0 {
		t.Errorf("left in the socket directory after Kill: %v", left)
	}
	if _, err := bot.Info(ctx); !botapi.IsDisconnect(err) {
		t.Errorf("Info after Kill = %v (%v), want a disconnect", err, status.Code(err))
	}
}

func TestSeedReproducible(t *testing.T) {
	p := startRandom(t)
	ctx := context.Background()
	game := func(seed string) []string {
		if err := p.bot.NewGame(ctx, botapi.Game{Rules: "tictactoe", Options: map[string]string{"seed": seed}}); err != nil {
			t.Fatal(err)
		}
		var moves []string
		pos := engine.NewPosition(engine.Rules{Kind: engine.MNK, Rows: 3, Cols: 3, K: 3})
		for pos.Result() == engine.Open {
			move, err := p.bot.GenMove(ctx, botapi.GenMoveRequest{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			m, _ := pos.Rules().ParseMove(move)
			if err := pos.Apply(m); err != nil {
				t.Fatalf("%s: %v", move, err)
			}
			if err := p.bot.Play(ctx, move); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, move)
		}
		return moves
	}
	a, b := game("7"), game("7")
	if !slices.Equal(a, b) {
		t.Errorf("seed=7 played %v then %v", a, b)
	}
}

func TestKilledBotIsDisconnect(t *testing.T) {
	p := startRandom(t)
	ctx := context.Background()
	if err := p.bot.NewGame(ctx, botapi.Game{Rules: "connect4"}); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(p.runner.cmd.Process.Pid, syscall.SIGKILL)
	deadline := time.Now().Add(2 * time.Second)
	for !p.client.Exited() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	_, err := p.bot.GenMove(ctx, botapi.GenMoveRequest{}, nil)
	if !botapi.IsDisconnect(err) || botapi.IsDeadline(err) {
		t.Errorf("GenMove on a killed bot = %v (%v), want a disconnect", err, status.Code(err))
	}
	t.Logf("GenMove on a killed bot: %v", err)
}

func TestCrashMidCallIsDisconnect(t *testing.T) {
	p := start(t, "crash")
	ctx := context.Background()
	if err := p.bot.NewGame(ctx, botapi.Game{Rules: "connect4"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := p.bot.GenMove(ctx, botapi.GenMoveRequest{}, nil)
	if !botapi.IsDisconnect(err) || botapi.IsDeadline(err) {
		t.Errorf("GenMove on a crashing bot = %v (%v), want a disconnect", err, status.Code(err))
	}
	t.Logf("GenMove on a crashing bot, after %v: %v", time.Since(start), err)
	if waitExit(p.runner.cmd.Process.Pid) != nil {
		t.Errorf("the crashed bot is still running")
	}
}

func TestLateBotHitsTheDeadline(t *testing.T) {
	p := start(t, "late")
	ctx := context.Background()
	if err := p.bot.NewGame(ctx, botapi.Game{Rules: "connect4", Options: map[string]string{"late_ms": "2000"}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err := p.bot.GenMove(dctx, botapi.GenMoveRequest{Deadline: start.Add(100 * time.Millisecond)}, nil)
	took := time.Since(start)
	if !botapi.IsDeadline(err) || botapi.IsDisconnect(err) {
		t.Errorf("GenMove on a late bot = %v", err)
	}
	if took > time.Second {
		t.Errorf("the call returned after %v, not at its context's deadline", took)
	}
	t.Logf("GenMove on a late bot, after %v: %v", took, err)
}

// TestBotExitsWhenHostDies starts random under a shell that exits after
// the handshake, without any parent-death signal: the SDK notices that its
// parent changed and exits.
func TestBotExitsWhenHostDies(t *testing.T) {
	hs := botapi.Handshake()
	sh := exec.Command("sh", "-c", `"$0" </dev/null 2>/dev/null & echo $!; sleep 0.3`, filepath.Join(binDir, "random"))
	sh.Env = append(os.Environ(), hs.MagicCookieKey+"="+hs.MagicCookieValue, "PLUGIN_PROTOCOL_VERSIONS=1,2",
		"PLUGIN_UNIX_SOCKET_DIR="+t.TempDir())
	sh.WaitDelay = 3 * time.Second // the bot holds the stdout pipe until it exits
	out, err := sh.Output()
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	pid, err := strconv.Atoi(lines[0])
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[1], "1|2|unix|") {
		t.Fatalf("output %q", out)
	}
	if err := waitExit(pid); err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the bot outlived its host: %v", err)
	}
}

// TestStartErrors pins go-plugin's words for the start-up failures the host
// words for its users.
func TestStartErrors(t *testing.T) {
	tests := []struct {
		name     string
		versions map[int]plugin.PluginSet
		want     string
	}{
		{"oldproto", nil, "incompatible API version with plugin. Plugin version: 0, Client versions: ["},                                                // [1 2] or [2 1]
		{"random", map[int]plugin.PluginSet{3: botapi.PluginSet(nil)}, "incompatible API version with plugin. Plugin version: 1, Client versions: [3]"}, // go-plugin names the lowest version the bot speaks,
		{"junk", nil, "Unrecognized remote plugin message: Welcome to junkbot 3000!"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var run *devnullRunner
			cfg := clientConfig(tc.name, t.TempDir(), &run)
			if tc.versions != nil {
				cfg.VersionedPlugins = tc.versions
			}
			client, _, err := dispense(cfg)
			if err == nil {
				client.Kill()
				t.Fatalf("%s started", tc.name)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q; want it to contain %q", err, tc.want)
			}
			if run == nil || run.cmd.ProcessState == nil && waitExit(run.cmd.Process.Pid) != nil {
				t.Errorf("the refused bot is still running")
			}
		})
	}
}

// waitExit waits up to 2 s for pid to be gone (or a zombie).
func waitExit(pid int) error {
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if !testproc.Alive(pid) {
			return nil
		}
	}
	return fmt.Errorf("pid %d still running", pid)
}

// BenchmarkGenMoveRoundTrip measures one GenMove through a real random bot
// subprocess, over each plugin protocol version (1: an RPC per request, 2:
// the Session stream on the bot's own socket): ns/op is the median,
// p99-ns/op the 99th percentile.
func BenchmarkGenMoveRoundTrip(b *testing.B) {
	for _, v := range []int{botapi.Version1, botapi.Version2} {
		b.Run(fmt.Sprintf("version%d", v), func(b *testing.B) {
			p := startVersion(b, "random", v)
			ctx := context.Background()
			if err := p.bot.NewGame(ctx, botapi.Game{Rules: "connect4"}); err != nil {
				b.Fatal(err)
			}
			measure(b, func() error {
				_, err := p.bot.GenMove(ctx, botapi.GenMoveRequest{}, nil)
				return err
			})
		})
	}
}

// BenchmarkUnaryBaseline measures a bare unary call (Info) over the same
// kind of connection, to subtract from BenchmarkGenMoveRoundTrip.
func BenchmarkUnaryBaseline(b *testing.B) {
	p := startRandom(b)
	ctx := context.Background()
	measure(b, func() error {
		_, err := p.bot.Info(ctx)
		return err
	})
}

func measure(b *testing.B, call func() error) {
	for range 100 { // warm up
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "ns/op")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns/op")
}
