package pluginbot

import (
	"context"
	"os"
	"testing"
)

// TestKilledByHostIsNoError: a bot the host kills (a Gomocup END, a
// forfeit, the end of a match) exits with "signal: killed", which go-plugin
// logs at ERROR unless the runner says the end was the host's; a bot that
// dies by itself is still logged as an error.
func TestKilledByHostIsNoError(t *testing.T) {
	tests := []struct {
		name      string
		end       func(b *Bot)
		wantLevel string
	}{
		{"killed by the host", func(b *Bot) { b.Kill() }, "info"},
		{"closed by the host", func(b *Bot) { b.Close() }, "info"},
		{"killed by someone else", func(b *Bot) {
			p, err := os.FindProcess(b.pid())
			if err == nil {
				err = p.Kill()
			}
			if err != nil {
				t.Fatal(err)
			}
		}, "error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, logs := newLoggingLoader(t)
			b, err := l.Start(context.Background(), "random", "random", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Kill()
			tc.end(b)
			got := logs.find(t, "plugin process exited")
			if got["@level"] != tc.wantLevel {
				t.Errorf("plugin process exited at %q, want %q (line %v)", got["@level"], tc.wantLevel, got)
			}
		})
	}
}
