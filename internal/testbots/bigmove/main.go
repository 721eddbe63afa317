package main

import (
	"context"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{ w *wire }

func (bot) Info() botapi.Info {
	return tb.Info("bigmove",
		botapi.Option{Name: "kind", Type: botapi.OptionChoice, Default: "move", Choices: []string{"move", "progress", "error"},
			Help: "what is oversized: the move, a progress report or an error message"},
		botapi.Option{Name: "bytes", Type: botapi.OptionInt, Default: "67108864", Min: 1, Max: 1 << 30, Help: "its size"},
	)
}

func (b bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	p := &player{kind: g.Values.Get("kind"), size: int(g.Values.Int("bytes"))}
	b.w.mu.Lock()
	b.w.p = p
	b.w.mu.Unlock()
	return p, nil
}

type player struct {
	kind string
	size int
}

func (p *player) GenMove(_ context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	switch p.kind {
	case "progress":
		report(botapi.Progress{Depth: 1, BestMove: strings.Repeat("9", p.size)})
	case "error":
		return engine.NoMove, status.Error(codes.Internal, strings.Repeat("9", p.size))
	}
	return tb.Legal(pos), nil
}

// wire is the SDK's wire-level bot with GenMove answering the oversized
// move text for kind=move (an engine.Move cannot be one).
type wire struct {
	botapi.Bot
	mu sync.Mutex
	p  *player
}

func (w *wire) GenMove(ctx context.Context, req botapi.GenMoveRequest, progress func(botapi.Progress)) (string, error) {
	w.mu.Lock()
	p := w.p
	w.mu.Unlock()
	if p != nil && p.kind == "move" {
		return strings.Repeat("9", p.size), nil
	}
	return w.Bot.GenMove(ctx, req, progress)
}

func main() {
	tb.Limit(nil)
	w := &wire{}
	w.Bot = sdk.Adapt(bot{w: w}, sdk.Logger())
	sdk.ServeAPI(w)
}
