package pluginbot

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
)

// sandboxModes are the two sides of the sandbox's cost, run in turn.
var sandboxModes = []procrun.SandboxMode{procrun.SandboxOff, procrun.SandboxAuto}

func sandboxLoader(t testing.TB, mode procrun.SandboxMode) *Loader {
	t.Helper()
	l, err := NewLoader(LoaderConfig{Finder: botpath.Finder{Dirs: []string{binDir}}, Containment: Containment{Sandbox: mode}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

// BenchmarkSandboxStart: a plugin bot's launch to ready (handshake and
// Info) with --sandbox=off and under the sandbox, in one run (issue 23:
// the sandbox should add under 20 ms).
func BenchmarkSandboxStart(b *testing.B) {
	procrun.SandboxDetect() // the probe, once, outside the timings
	for _, mode := range sandboxModes {
		b.Run("sandbox="+mode.String(), func(b *testing.B) {
			l := sandboxLoader(b, mode)
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
		})
	}
}

// BenchmarkSandboxGenMove: the plugin GenMove round trip (host→bot→host)
// with --sandbox=off and under the sandbox, in one run (issue 23: under
// 1.2× of today's).
func BenchmarkSandboxGenMove(b *testing.B) {
	for _, mode := range sandboxModes {
		b.Run("sandbox="+mode.String(), func(b *testing.B) {
			l := sandboxLoader(b, mode)
			ctx := context.Background()
			bot, err := l.Start(ctx, "random", "random", map[string]string{"seed": "1"})
			if err != nil {
				b.Fatal(err)
			}
			defer bot.Close()
			if err := bot.NewGame(ctx, referee.Setup{Rules: engine.Connect4(), Color: engine.X}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			ds := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				if _, err := bot.GenMove(ctx, referee.MoveRequest{Deadline: time.Now().Add(time.Second)}); err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
				if err := bot.Undo(ctx); err != nil {
					b.Fatal(err)
				}
			}
			percentiles(b, ds)
		})
	}
}
