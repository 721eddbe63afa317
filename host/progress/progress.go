package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Reporter reports done of total on its writer: a bar, or lines.
type Reporter struct {
	w     io.Writer
	every time.Duration

	mu     sync.Mutex // orders lines, log lines and clearing the bar's line
	bar    *progressbar.ProgressBar
	barSet bool
	last   time.Time
}

// New reports on w: with a bar counting what (e.g. "games") when bar is
// true, else with a line at most every every (0: a line every update)
// and one at the end (done == total). The first line waits every too.
func New(w io.Writer, what string, bar bool, every time.Duration) *Reporter {
	r := &Reporter{w: w, every: every, last: time.Now()}
	if bar {
		r.bar = progressbar.NewOptions(1, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
			progressbar.OptionSetDescription(what), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		r.barSet = true
	}
	return r
}

// Bar reports whether r draws a bar (and so writes no lines).
func (r *Reporter) Bar() bool { return r.bar != nil }

// Update reports done of total: the bar moves, or line() is written when
// it is due (line is called only then).
func (r *Reporter) Update(done, total int, line func() string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bar != nil {
		r.bar.ChangeMax(total)
		_ = r.bar.Set(done)
		return
	}
	if done != total && time.Since(r.last) < r.every {
		return
	}
	r.last = time.Now()
	fmt.Fprintln(r.w, line())
}

// Line writes a line now (without a bar only, e.g. a SPRT's state).
func (r *Reporter) Line(line string) {
	if r.bar == nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		fmt.Fprintln(r.w, line)
	}
}

// Log is the writer to give the run's logger.
func (r *Reporter) Log() io.Writer { return logWriter{r} }

type logWriter struct{ r *Reporter }

func (l logWriter) Write(b []byte) (int, error) {
	l.r.mu.Lock()
	defer l.r.mu.Unlock()
	if l.r.barSet {
		if _, err := io.WriteString(l.r.w, "\r\x1b[K"); err != nil {
			return 0, err
		}
	}
	return l.r.w.Write(b)
}

// Finish clears the bar at the end of the run.
func (r *Reporter) Finish() {
	if r.bar == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_ = r.bar.Finish()
	r.barSet = false
}
