// Command escaper is the hostile bot of issue 14: at every genmove it
// starts a child that leaves its process group and session (how=setsid:
// `setsid -f sh -c 'sleep 200'`; how=doublefork: a background child that
// makes a new session and forks the sleep, as daemon(3) does), keeping
// the bot's stdout and stderr open, then plays the first legal move
// (mode=play) or hangs (mode=hang, a timeout forfeit). Each escaped child appends its pid to $TMPDIR/escaper.pids, so
// tests can look for survivors.
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{}

func (bot) Info() botapi.Info {
	return tb.Info("escaper",
		botapi.Option{Name: "how", Type: botapi.OptionString, Default: "setsid", Help: "setsid or doublefork"},
		botapi.Option{Name: "mode", Type: botapi.OptionString, Default: "play", Help: "play or hang after escaping"},
	)
}

func (bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return &player{how: g.Values.Get("how"), mode: g.Values.Get("mode")}, nil
}

type player struct{ how, mode string }

func (p *player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	pids := filepath.Join(os.TempDir(), "escaper.pids")
	script := fmt.Sprintf(`setsid -f sh -c 'echo $$ >> %s; exec sleep 200'`, pids)
	if p.how == "doublefork" {
		// daemon(3)'s way: a background child makes a new session and
		// forks again; the grandchild, in that session but not its
		// leader, is left to init when both parents exit.
		script = fmt.Sprintf(`(setsid sh -c '(sh -c "echo \$\$ >> %s; exec sleep 200" &)' &)`, pids)
	}
	before := lines(pids)
	cmd := exec.Command("sh", "-c", script)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr // the escapee holds the bot's pipes, as in the issue
	if err := cmd.Run(); err != nil {
		return engine.NoMove, fmt.Errorf("escape: %w", err)
	}
	// Wait until the escaped child has written its pid (it runs on after
	// its parent shell returns).
	for end := time.Now().Add(5 * time.Second); lines(pids) == before && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if p.mode == "hang" {
		tb.Hang()
	}
	return tb.Legal(pos), nil
}

func lines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{})
}
