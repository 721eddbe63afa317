//go:build linux

// Linux only: the bots run in their own process group with a parent-death
// signal (Pdeathsig), and are stopped and killed with signals.

package testbots

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/internal/testbuild"
	"github.com/kinrow/kinrow/internal/testproc"
	"github.com/kinrow/kinrow/protocol/botapi"
)

var binDir string

var names = []string{"hang", "crash", "illegal", "junk", "junkafter", "late", "sleeper", "forker", "oldproto"}

func TestMain(m *testing.M) {
	testbuild.Main(m, "kinrow-testbots-", &binDir, func(dir string) error {
		var pkgs []string
		for _, n := range names {
			pkgs = append(pkgs, "./internal/testbots/"+n)
		}
		return testbuild.Packages(dir, pkgs...)
	})
}

type bot struct {
	botapi.Bot
	client *plugin.Client
	cmd    *exec.Cmd
}

// start starts test bot name as the host would, killing its process group
// at the end of the test.
func start(t *testing.T, name string, startTimeout time.Duration) (*bot, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, name))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  botapi.Handshake(),
		VersionedPlugins: botapi.VersionedPluginSets(nil),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Cmd:              cmd,
		StartTimeout:     startTimeout,
		Logger:           hclog.NewNullLogger(),
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: t.TempDir()},
	})
	t.Cleanup(func() {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		client.Kill()
	})
	rpc, err := client.Client()
	if err != nil {
		return nil, err
	}
	raw, err := rpc.Dispense(botapi.PluginName)
	if err != nil {
		return nil, err
	}
	return &bot{Bot: raw.(botapi.Bot), client: client, cmd: cmd}, nil
}

func mustStart(t *testing.T, name string, g botapi.Game) *bot {
	t.Helper()
	b, err := start(t, name, 10*time.Second)
	if err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	if err := b.NewGame(context.Background(), g); err != nil {
		t.Fatalf("%s NewGame: %v", name, err)
	}
	return b
}

// genmove asks for a move within d.
func (b *bot) genmove(d time.Duration) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	m, err := b.GenMove(ctx, botapi.GenMoveRequest{Deadline: start.Add(d)}, nil)
	return m, time.Since(start), err
}

// alive reports whether pid runs (and is not a zombie).
var alive = testproc.Alive

func TestHelp(t *testing.T) {
	for _, n := range names {
		if n == "sleeper" || n == "oldproto" {
			continue // sleeps before serving; serves without the SDK
		}
		out, err := exec.Command(filepath.Join(binDir, n), "--help").Output()
		if err != nil || !strings.Contains(string(out), n+" test") || !strings.Contains(string(out), "strength -100") {
			t.Errorf("%s --help: %v\n%s", n, err, out)
		}
	}
}

func TestHang(t *testing.T) {
	b := mustStart(t, "hang", botapi.Game{Rules: "connect4", Options: map[string]string{"hang_after": "1"}})
	if m, _, err := b.genmove(time.Second); m != "1" || err != nil {
		t.Fatalf("first genmove = %q, %v", m, err)
	}
	_, took, err := b.genmove(200 * time.Millisecond)
	if !botapi.IsDeadline(err) || took > time.Second {
		t.Errorf("second genmove = %v after %v, want a deadline", err, took)
	}
	time.Sleep(100 * time.Millisecond)
	if !alive(b.cmd.Process.Pid) {
		t.Errorf("hang exited instead of hanging")
	}
}

func TestCrash(t *testing.T) {
	b := mustStart(t, "crash", botapi.Game{Rules: "connect4", Options: map[string]string{"crash_after": "2"}})
	for i := 0; i < 2; i++ {
		if _, _, err := b.genmove(time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := b.genmove(time.Second); !botapi.IsDisconnect(err) {
		t.Errorf("third genmove = %v, want a disconnect", err)
	}
	for end := time.Now().Add(2 * time.Second); !b.client.Exited() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if !b.client.Exited() || b.cmd.ProcessState.ExitCode() != 3 {
		t.Errorf("crash exited %v with %v", b.client.Exited(), b.cmd.ProcessState)
	}
}

func TestIllegal(t *testing.T) {
	full := []string{"1", "1", "1", "1", "1", "1"}
	tests := []struct {
		rules string
		moves []string
		kind  string
		want  string
	}{
		{"connect4", full, "full", "1"},
		{"connect4", full, "occupied", "1"},
		{"connect4", nil, "full", "8"}, // no full column: off the board
		{"connect4", nil, "offboard", "8"},
		{"connect4", nil, "garbage", "zz!9"},
		{"tictactoe", []string{"b2"}, "occupied", "b2"},
		{"tictactoe", nil, "offboard", "a4"},
		{"tictactoe", nil, "garbage", "zz!9"},
	}
	b := mustStart(t, "illegal", botapi.Game{Rules: "connect4"})
	for _, tc := range tests {
		if err := b.NewGame(context.Background(), botapi.Game{Rules: tc.rules, Moves: tc.moves, Options: map[string]string{"kind": tc.kind}}); err != nil {
			t.Fatal(err)
		}
		if m, _, err := b.genmove(time.Second); m != tc.want || err != nil {
			t.Errorf("%s %v kind=%s: genmove = %q, %v; want %q", tc.rules, tc.moves, tc.kind, m, err, tc.want)
		}
	}
}

func TestJunkAfter(t *testing.T) {
	b := mustStart(t, "junkafter", botapi.Game{Rules: "connect4"})
	for i := 0; i < 4; i++ {
		m, _, err := b.genmove(time.Second)
		if err != nil || m != "1" {
			t.Fatalf("genmove %d = %q, %v", i, m, err)
		}
		if err := b.Play(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLate(t *testing.T) {
	b := mustStart(t, "late", botapi.Game{Rules: "connect4", Options: map[string]string{"late_ms": "300"}})
	if _, took, err := b.genmove(100 * time.Millisecond); !botapi.IsDeadline(err) || took > 250*time.Millisecond {
		t.Errorf("genmove within 100ms = %v after %v", err, took)
	}
	// The bot is still sleeping on the abandoned call; the next one waits for it.
	if m, took, err := b.genmove(2 * time.Second); m != "1" || err != nil || took < 300*time.Millisecond {
		t.Errorf("genmove within 2s = %q, %v after %v", m, err, took)
	}
}

func TestForker(t *testing.T) {
	b := mustStart(t, "forker", botapi.Game{Rules: "connect4"})
	pgid := b.cmd.Process.Pid
	children := func() []int {
		var pids []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			var pid int
			if _, err := fmt.Sscan(e.Name(), &pid); err != nil || !alive(pid) || pid == pgid {
				continue
			}
			if g, err := syscall.Getpgid(pid); err == nil && g == pgid {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	kids := children()
	if len(kids) != 1 {
		t.Fatalf("processes in the bot's group besides the bot: %v", kids)
	}
	if _, _, err := b.genmove(100 * time.Millisecond); !botapi.IsDeadline(err) {
		t.Errorf("genmove = %v, want a deadline", err)
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	for end := time.Now().Add(2 * time.Second); alive(kids[0]) && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if alive(kids[0]) {
		t.Errorf("the child survived its group's SIGKILL")
	}
}

func TestSleeper(t *testing.T) {
	start0 := time.Now()
	_, err := start(t, "sleeper", 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "timeout while waiting for plugin to start") {
		t.Errorf("sleeper started: %v", err)
	}
	if took := time.Since(start0); took > 2*time.Second {
		t.Errorf("the start-up failure took %v", took)
	}
}

func TestStartFailures(t *testing.T) {
	for name, want := range map[string]string{
		"junk":     "Unrecognized remote plugin message: Welcome to junkbot 3000!",
		"oldproto": "incompatible API version with plugin. Plugin version: 0, Client versions: [", // [1 2] or [2 1]
	} {
		if _, err := start(t, name, 5*time.Second); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", name, err, want)
		}
	}
}

// TestRefusals checks the test bots refuse bad options like real ones.
func TestRefusals(t *testing.T) {
	b, err := start(t, "illegal", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	err = b.NewGame(context.Background(), botapi.Game{Rules: "connect4", Options: map[string]string{"kind": "nice"}})
	var we *botapi.Error
	if status.Code(err) != codes.InvalidArgument || !errors.As(err, &we) ||
		we.Message() != "option kind=nice: accepted are occupied, full, offboard, garbage" {
		t.Errorf("NewGame kind=nice: %v", err)
	}
}
