package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// bot counts the games this process was given.
type bot struct {
	mu    sync.Mutex
	games int64
}

func (*bot) Info() botapi.Info {
	return tb.Info("refuser",
		tb.IntOption("games", "1", "games taken by one process; the next ones are refused"),
		botapi.Option{Name: "refuse_kind", Type: botapi.OptionChoice, Default: "none",
			Choices: []string{"none", "connectx", "mnk"}, Help: "a kind of game always refused"})
}

func (b *bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.games++
	if kind := g.Values.Get("refuse_kind"); kind == g.Rules.Kind.String() {
		return nil, fmt.Errorf("refuser plays no %s game", kind)
	}
	if limit := g.Values.Int("games"); b.games > limit {
		return nil, fmt.Errorf("refuser takes %d game(s) per process; this is game %d", limit, b.games)
	}
	return tb.Player{}, nil
}

func main() {
	tb.Limit(nil)
	sdk.Serve(&bot{})
}
