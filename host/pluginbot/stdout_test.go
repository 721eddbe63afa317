package pluginbot

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
)

// stdoutGuard: the handshake line reaches go-plugin, nothing after it; a
// stray line is dropped, more than StdoutCap within StdoutPeriod is one
// flood, counted; the reader ends with the pipe.
func TestStdoutGuard(t *testing.T) {
	handshake := "1|2|unix|/tmp/x/plugin1|grpc|\n"
	for _, tc := range []struct {
		name   string
		writes []string
		gap    time.Duration // the clock's step between writes
		flood  int64         // the bytes flood is called with, 0: not called
	}{
		{"handshake only", []string{handshake}, 0, 0},
		{"a stray line", []string{handshake, "junk\n", "= 1\n\n"}, 0, 0},
		{"the cap in one go", []string{handshake, strings.Repeat("x", StdoutCap)}, 0, 0},
		{"past the cap in one line", []string{handshake, strings.Repeat("x", StdoutCap+1)}, 0, StdoutCap + 1},
		{"past the cap with the handshake", []string{handshake + strings.Repeat("x", StdoutCap+1)}, 0, StdoutCap + 1},
		{"the cap twice, a period apart", []string{handshake, strings.Repeat("x", StdoutCap), strings.Repeat("y", StdoutCap)}, 2 * StdoutPeriod, 0},
		{"the cap twice at once", []string{handshake, strings.Repeat("x", StdoutCap), strings.Repeat("y", 10)}, 0, StdoutCap + 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var floods []int64
			g := newStdoutGuard(r, func(n int64) { floods = append(floods, n) })
			clock := time.Unix(1e9, 0)
			g.now = func() time.Time { return clock }
			go func() {
				for _, s := range tc.writes {
					io.WriteString(w, s)
					time.Sleep(10 * time.Millisecond) // each write its own read
				}
				w.Close()
			}()
			buf := make([]byte, 4096)
			n, err := io.ReadAtLeast(g, buf, len(handshake))
			if err != nil || string(buf[:n]) != handshake {
				t.Fatalf("first read = %q, %v; want the handshake line", buf[:n], err)
			}
			// The clock steps as the rest is read (count runs on the reader).
			g.now = func() time.Time { clock = clock.Add(tc.gap); return clock }
			rest, err := io.ReadAll(g)
			if err != nil || len(rest) != 0 {
				t.Errorf("after the handshake go-plugin read %d bytes, %v; want nothing and the end", len(rest), err)
			}
			switch {
			case tc.flood == 0 && len(floods) != 0:
				t.Errorf("flood called with %v, want never", floods)
			case tc.flood != 0 && (len(floods) != 1 || floods[0] != tc.flood):
				t.Errorf("flood called with %v, want once with %d", floods, tc.flood)
			}
		})
	}
}

// Issue 35: a plugin bot that flooded its stdout after the handshake (a
// line past 64 KiB stopped go-plugin's line scanner, the pipe filled, the
// bot blocked, and the game stalled until its move timed out; megabytes of
// short lines were read and dropped for ever). Now it is killed at once
// with everything it started and forfeits, the detail naming the flood.
func TestStdoutFloodForfeits(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{
		{"one line of 1 MiB", map[string]string{"to": "stdout", "mb": "1", "line": "1"}},
		{"8 MiB of lines", map[string]string{"to": "stdout", "mb": "8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := startBot(t, newLoader(t), "flood", tc.opts)
			pid := b.pid()
			const moveTime = 10 * time.Second
			g := connect4(t, referee.Clock{MoveTime: moveTime}, b, nil)
			start := time.Now()
			out, err := g.GenMove(context.Background(), engine.X)
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s after %v: %s", out.Forfeit, took.Round(time.Millisecond), out.Detail)
			if out.Forfeit != record.ForfeitCrash || !strings.Contains(out.Detail, "flooded its standard output") {
				t.Errorf("the flood ended %q (%s), want a crash forfeit naming the flood", out.Forfeit, out.Detail)
			}
			if took > moveTime/2 {
				t.Errorf("the forfeit took %v: the flood stalled the game", took)
			}
			for end := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(end); {
				time.Sleep(10 * time.Millisecond)
			}
			if alive(pid) {
				t.Errorf("the flooding bot (pid %d) still runs", pid)
			}
		})
	}
}
