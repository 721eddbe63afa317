package pluginbot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
)

// newLoggingLoader is newLoader whose runner logs at INFO, as JSON, into
// the logBuffer it returns.
func newLoggingLoader(t *testing.T) (*testLoader, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	return loaderWith(t, loaderConfig{Logger: hclog.New(&hclog.LoggerOptions{Output: logs, JSONFormat: true, Level: hclog.Info})}), logs
}

// logBuffer collects the host's JSON log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// find returns the fields of the first log line with message msg, as
// text, waiting up to 10 s for the bot's stderr to be relayed.
func (b *logBuffer) find(t *testing.T, msg string) map[string]string {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; {
		b.mu.Lock()
		text := b.buf.String()
		b.mu.Unlock()
		for _, line := range strings.Split(text, "\n") {
			var entry map[string]any
			if json.Unmarshal([]byte(line), &entry) != nil || entry["@message"] != msg {
				continue
			}
			fields := map[string]string{}
			for k, v := range entry {
				fields[k] = fmt.Sprint(v)
			}
			return fields
		}
		if time.Now().After(end) {
			t.Fatalf("no %q line in the host's log:\n%s", msg, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClockReachesTheBot plays one move of a clockreport bot under each
// time control, through the referee, the loader and the real plugin wire,
// and reads what the bot says it received: the time control at NewGame
// (the increment included) and the move's budget and both sides' time left
// with GenMove.
func TestClockReachesTheBot(t *testing.T) {
	tests := []struct {
		name    string
		clock   referee.Clock
		newgame map[string]string
		genmove map[string]string
	}{
		{
			name:    "--tc 10s+0.1s",
			clock:   referee.Clock{MoveTime: time.Second, Main: 10 * time.Second, Increment: 100 * time.Millisecond},
			newgame: map[string]string{"movetime_ms": "1000", "main_ms": "10000", "byo_ms": "0", "byo_stones": "0", "increment_ms": "100"},
			genmove: map[string]string{"ok": "true", "budget_ms": "10000", "x_left_ms": "10000", "o_left_ms": "10000"},
		},
		{
			name:    "--movetime 300ms",
			clock:   referee.Clock{MoveTime: 300 * time.Millisecond},
			newgame: map[string]string{"movetime_ms": "300", "main_ms": "0", "byo_ms": "0", "byo_stones": "0", "increment_ms": "0"},
			genmove: map[string]string{"ok": "true", "budget_ms": "300", "x_left_ms": "300", "o_left_ms": "300"},
		},
		{
			name:    "main time and byo-yomi",
			clock:   referee.Clock{MoveTime: time.Second, Main: 2 * time.Second, Byo: 5 * time.Second, Stones: 3},
			newgame: map[string]string{"movetime_ms": "1000", "main_ms": "2000", "byo_ms": "5000", "byo_stones": "3", "increment_ms": "0"},
			genmove: map[string]string{"ok": "true", "budget_ms": "7000", "x_left_ms": "7000", "o_left_ms": "7000"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, logs := newLoggingLoader(t)
			ctx := context.Background()
			p, err := l.Load(ctx, "clockreport", "clockreport", nil)
			if err != nil {
				t.Fatal(err)
			}
			g := connect4(t, tc.clock, p, nil)
			if out, err := g.GenMove(ctx, engine.X); err != nil || !out.Played {
				t.Fatalf("GenMove = %+v, %v", out, err)
			}
			for msg, want := range map[string]map[string]string{"newgame clock": tc.newgame, "genmove clock": tc.genmove} {
				got := logs.find(t, msg)
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s: %s = %q, want %q (line %v)", msg, k, got[k], v, got)
					}
				}
			}
		})
	}
}
