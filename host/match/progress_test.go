package match

import (
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// With a bar, a log line starts by clearing the bar's line, so that it
// never lands inside it; without one, the log line is written as it is
// and every game gets a line.
func TestProgressLogLines(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		var out strings.Builder
		p := NewProgress(&out, terminal)
		var cfg Config
		p.Hook(&cfg)
		cfg.OnGame(1, 2, &record.Record{Players: record.Players{X: "a", O: "b"}})
		out.Reset()
		if _, err := p.Log().Write([]byte("[WARN] kinrow: something\n")); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if terminal != strings.HasPrefix(got, "\r\x1b[K") || !strings.HasSuffix(got, "[WARN] kinrow: something\n") {
			t.Errorf("terminal %v: log line written as %q", terminal, got)
		}
		p.Finish()
		out.Reset()
		p.Log().Write([]byte("after\n"))
		if out.String() != "after\n" {
			t.Errorf("terminal %v: after the bar, a log line is written as %q", terminal, out.String())
		}
	}
}
