package pluginbot

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
	"github.com/kinrow/kinrow/internal/testcpu"
)

type inProcessLoader struct{ n atomic.Uint64 }

// Load starts a random player without a plugin boundary (the shared fake):
// the baseline for the referee's own cost per game.
func (l *inProcessLoader) Load(_ context.Context, _, display string, _ map[string]string) (referee.Player, error) {
	rng := rand.New(rand.NewPCG(l.n.Add(1), 7))
	var buf []engine.Move
	return &refereetest.Player{Label: display, Answer: func(_ context.Context, pos *engine.Position) (string, error) {
		buf = pos.LegalMoves(buf[:0])
		return pos.Rules().FormatMove(buf[rng.IntN(len(buf))]), nil
	}}, nil
}

func benchGames(b *testing.B, loader match.Loader, concurrency int) {
	cfg := match.Config{
		Rules: engine.Connect4(), Bots: []match.BotSpec{{Name: "random"}, {Name: "random"}},
		Games: b.N, Concurrency: concurrency, Seed: 1,
		Clock: referee.Clock{MoveTime: time.Second}, Loader: loader,
	}
	b.ResetTimer()
	cpu0, t0 := testcpu.Self(b), time.Now()
	sum, err := match.Run(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	elapsed, cpu := time.Since(t0), testcpu.Self(b)-cpu0
	if sum.Games != b.N {
		b.Fatalf("%d games of %d", sum.Games, b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "games/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "host-cpu-µs/game")
}

// BenchmarkRandomGames plays random-vs-random Connect-4 through the
// referee: with plugin bots (real subprocesses) at concurrency 1 and 2,
// and in one process without plugins, in the same run.
func BenchmarkRandomGames(b *testing.B) {
	b.Run("plugins-j1", func(b *testing.B) { benchGames(b, newLoader(b), 1) })
	b.Run("plugins-j2", func(b *testing.B) { benchGames(b, newLoader(b), 2) })
	b.Run("in-process", func(b *testing.B) { benchGames(b, &inProcessLoader{}, 1) })
}
