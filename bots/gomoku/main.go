package main

import (
	"context"
	"time"

	"github.com/kinrow/kinrow/bots/gomoku/search"
	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/bots/mics/play"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

type bot struct{}

// Info describes the bot: the strongest kinrow bot at m,n,k (K = 5).
func (bot) Info() botapi.Info {
	return botapi.Info{
		Name: "gomoku", Version: "1.0", Author: "kinrow", Strength: 10,
		KindStrength: map[string]int{"mnk": 60},
		Kinds:        []string{"mnk", "mnk:exact", "mnk:renju"},
		MaxRows:      engine.MaxSide, MaxCols: engine.MaxSide,
		Options: []botapi.Option{
			{Name: "depth", Type: botapi.OptionInt, Min: 1, Max: 60,
				Help: "deepest iteration of the search in plies (default 40: as deep as the time allows)"},
			{Name: "tt_bits", Type: botapi.OptionInt, Min: 10, Max: 26,
				Help: "log2 of the transposition table's entries (default 20, 16 MiB; 17 for moves under 300 ms)"},
		},
	}
}

// NewGame builds the searcher for K = 5, or a MICS searcher for another K.
func (bot) NewGame(ctx context.Context, g sdk.Game) (sdk.Player, error) {
	pos := engine.NewPosition(g.Rules)
	for _, m := range g.Moves {
		pos.Play(m)
	}
	if g.Rules.K != 5 {
		s, err := mics.New(g.Rules, mics.Options{Seed: uint64(time.Now().UnixNano()), MoveTime: g.Time.MoveTime})
		if err != nil {
			return nil, err
		}
		s.Calibrate(ctx, min(100*time.Millisecond, max(g.Time.MoveTime, 10*time.Millisecond)))
		s.Follow(pos)
		return play.New(s, g.Time), nil
	}
	opt := search.Options{MaxDepth: int(g.Values.Int("depth")), TTBits: int(g.Values.Int("tt_bits"))}
	if opt.TTBits == 0 && g.Time.MoveTime > 0 && g.Time.MoveTime < 300*time.Millisecond {
		opt.TTBits = shortTTBits
	}
	p := &player{s: search.New(g.Rules, opt), clock: g.Time}
	p.s.WarmUp(ctx, pos) // off the clock
	return p, nil
}

// shortTTBits is the transposition table's size (2 MiB) for moves shorter
// than 300 ms, which search too few nodes to fill more: less memory to
// touch and to collect at the start of a game, where a starved process on
// a loaded machine otherwise risks its first move's deadline.
const shortTTBits = 17

// player plays one K = 5 game.
type player struct {
	s     *search.Searcher
	clock botapi.TimeControl
}

// GenMove searches within the move's share of the time.
func (p *player) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	ctx, cancel := sdk.WithMoveShare(ctx, p.clock, pos)
	defer cancel()
	r := pos.Rules()
	m := p.s.BestMove(ctx, pos, func(pr search.Progress) {
		report(botapi.Progress{Depth: pr.Depth, Score: pr.Score, BestMove: r.FormatMove(pr.Best), Nodes: pr.Nodes})
	})
	if m == engine.NoMove || !pos.Legal(m) {
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 {
			return engine.NoMove, context.Canceled
		}
		m = legal[0]
	}
	return m, nil
}

func main() { sdk.Serve(bot{}) }
