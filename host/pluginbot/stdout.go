package pluginbot

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/kinrow/kinrow/host/procrun"
)

// StdoutCap is how many bytes a plugin bot may write on its standard output
// after the plugin handshake within StdoutPeriod. Nothing it writes there is
// read (go-plugin's bots speak on their socket; go-plugin's Serve sends
// os.Stdout over gRPC): a stray line or two is dropped, a flood past the
// cap has the bot killed with everything it started, and it forfeits
// saying so.
const StdoutCap = 64 << 10

// StdoutPeriod is the span StdoutCap applies to.
const StdoutPeriod = time.Second

// stdoutGuard is the bot's stdout as go-plugin reads it: the handshake
// line, then nothing until the bot's stdout ends. What comes after the
// handshake is read here, counted and dropped, so the pipe never fills
// (go-plugin's line scanner stops reading at a line over 64 KiB, and the
// bot then blocks on its full pipe until its move times out). More than
// StdoutCap bytes within StdoutPeriod is a flood: flood is called once,
// with every byte counted after the handshake so far. The host's end of
// the pipe is closed at its end.
type stdoutGuard struct {
	f     *os.File
	flood func(bytes int64)
	now   func() time.Time

	handshook bool
	after     int64     // bytes after the handshake
	window    int64     // of them, in the period from since
	since     time.Time // the start of the current period
	flooded   bool
	buf       []byte // drain's, when the caller's is too small
}

func newStdoutGuard(f *os.File, flood func(int64)) *stdoutGuard {
	return &stdoutGuard{f: f, flood: flood, now: time.Now}
}

// Read passes the bot's stdout up to the end of its first line, the
// handshake; then it drains the rest and returns only at its end.
func (g *stdoutGuard) Read(p []byte) (int, error) {
	if g.handshook {
		return 0, g.drain(p)
	}
	n, err := g.f.Read(p)
	if i := bytes.IndexByte(p[:n], '\n'); i >= 0 {
		g.handshook = true
		g.count(int64(n - i - 1))
		n = i + 1
	}
	if err != nil {
		g.f.Close()
	}
	return n, err
}

// drain reads the pipe to its end, counting, into scratch (the caller's
// buffer, go-plugin's scanner's) or, when that is small, a buffer of its
// own.
func (g *stdoutGuard) drain(scratch []byte) error {
	if len(scratch) < 1<<10 {
		if g.buf == nil {
			g.buf = make([]byte, 4<<10)
		}
		scratch = g.buf
	}
	for {
		n, err := g.f.Read(scratch)
		g.count(int64(n))
		if err != nil {
			g.f.Close()
			if err == io.EOF {
				return io.EOF
			}
			return fmt.Errorf("the bot's stdout: %w", err)
		}
	}
}

// count adds n bytes written after the handshake and calls flood when they
// make a flood.
func (g *stdoutGuard) count(n int64) {
	if n <= 0 {
		return
	}
	now := g.now()
	if g.since.IsZero() || now.Sub(g.since) > StdoutPeriod {
		g.since, g.window = now, 0
	}
	g.after += n
	g.window += n
	if g.window > StdoutCap && !g.flooded {
		g.flooded = true
		g.flood(g.after)
	}
}

// Close closes the host's end of the pipe.
func (g *stdoutGuard) Close() error { return g.f.Close() }

// floodNote is what a bot that flooded its stdout is told it did, for the
// referee's forfeit (Facts.How).
type floodNote struct {
	mu   sync.Mutex
	text string
}

func (f *floodNote) set(bytes int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.text = fmt.Sprintf("flooded its standard output: %d bytes after the plugin handshake, over %s within %s (killed by the host)",
		bytes, procrun.FormatSize(StdoutCap), StdoutPeriod)
}

// get is the note, "" when the bot did not flood.
func (f *floodNote) get() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.text
}
