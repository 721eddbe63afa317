package main

import (
	"context"
	"os/exec"
	"sync"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct {
	mu       sync.Mutex
	children []*exec.Cmd
}

func (*bot) Info() botapi.Info { return tb.Info("forker") }

func (b *bot) NewGame(context.Context, sdk.Game) (sdk.Player, error) {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go cmd.Wait() // reap it
	b.mu.Lock()
	b.children = append(b.children, cmd)
	b.mu.Unlock()
	return player{}, nil
}

// killChildren stops the children when the bot's lifetime ends.
func (b *bot) killChildren() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.children {
		c.Process.Kill()
	}
}

type player struct{}

func (player) GenMove(context.Context, *engine.Position, func(botapi.Progress)) (engine.Move, error) {
	tb.Hang()
	return engine.NoMove, nil
}

func main() {
	b := &bot{}
	tb.Limit(b.killChildren)
	sdk.Serve(b)
}
