package pluginbot

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// TestOversizedAnswersForfeit has a bigmove bot answer past the size caps
// (docs/PROTOCOL.md) through a real plugin process and the referee: the
// bot forfeits "protocol error" with a short detail, the bot's text is
// never quoted whole, and the host does not hold the answer in memory.
func TestOversizedAnswersForfeit(t *testing.T) {
	tests := []struct {
		kind  string
		bytes int
	}{
		{"move", 64 << 20}, // 64 MiB: go-plugin's own cap is 2 GiB
		{"move", 1 << 20},  // under gRPC's usual 4 MiB, over the move answer cap
		{"move", botapi.MaxMoveLen + 1},
		{"progress", 1 << 20},
		{"error", 1 << 20},  // past the metadata cap
		{"error", 10 << 10}, // under it: quoted, cut at MaxErrorLen
	}
	l := newLoader(t)
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %d bytes", tc.kind, tc.bytes), func(t *testing.T) {
			p, err := l.Load(ctx, "bigmove", "bigmove", map[string]string{"kind": tc.kind, "bytes": fmt.Sprint(tc.bytes)})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			g := connect4(t, referee.Clock{MoveTime: 10 * time.Second}, p, nil)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			out, err := g.GenMove(ctx, engine.X)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if out.Forfeit != record.ForfeitProtocolError || out.Played {
				t.Errorf("outcome %+v, want a protocol error", out)
			}
			if n := len(out.Detail); n > 2*botapi.MaxErrorLen {
				t.Errorf("the detail is %d bytes long: %.200s…", n, out.Detail)
			}
			if rec := g.Record(); rec.Forfeit != record.ForfeitProtocolError || len(rec.Detail) > 2*botapi.MaxErrorLen {
				t.Errorf("record: forfeit %q, detail of %d bytes", rec.Forfeit, len(rec.Detail))
			}
			// The host allocates far less than the answer: a few caps' worth.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
				t.Errorf("the host allocated %d MiB during the move", grew>>20)
			}
			t.Logf("detail: %s", out.Detail)
		})
	}
}
