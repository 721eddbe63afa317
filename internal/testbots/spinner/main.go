// Command spinner thinks on its opponent's time: at its first genmove it
// starts a busy goroutine and a busy child process (a shell loop, in the
// bot's process group, until the bot is gone), writes the child's pid to
// the file its pidfile option names, and answers the first legal move at
// once; both keep burning CPU after the answer. With the host's
// --bot-suspend they are stopped from its answer to its next request.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{ once *sync.Once }

func (bot) Info() botapi.Info {
	return tb.Info("spinner",
		botapi.Option{Name: "pidfile", Type: botapi.OptionString, Help: "where to write the busy child's pid"})
}

func (b bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return &player{once: b.once, pidfile: g.Values.Get("pidfile")}, nil
}

type player struct {
	once    *sync.Once
	pidfile string
}

func (p *player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	var err error
	p.once.Do(func() { err = spin(p.pidfile) })
	if err != nil {
		return engine.NoMove, err
	}
	return tb.Legal(pos), nil
}

// spin starts the busy goroutine and the busy child.
func spin(pidfile string) error {
	go func() {
		for n := 0; ; n++ {
			if n == -1 {
				fmt.Println(n)
			}
		}
	}()
	// The child loops while the bot lives, so it never outlives it by
	// more than a look.
	cmd := exec.Command("sh", "-c", "while kill -0 "+strconv.Itoa(os.Getpid())+" 2>/dev/null; do :; done")
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the busy child: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	if pidfile != "" {
		if err := os.WriteFile(pidfile, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644); err != nil {
			return fmt.Errorf("write the busy child's pid: %w", err)
		}
	}
	return nil
}

func main() {
	tb.Limit(nil)
	sdk.Serve(bot{once: new(sync.Once)})
}
