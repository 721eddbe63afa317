package match

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/schollz/progressbar/v3"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
)

// Progress reports a run's games as they end (kinrow match on stderr): a
// progress bar when the output is a terminal, else a line a game and,
// under a SPRT, a line a pair. Log lines written through Log never land
// inside the bar's line: each clears it first, and the bar draws itself
// again with the next game.
type Progress struct {
	w   io.Writer
	bar *progressbar.ProgressBar

	mu     sync.Mutex // orders log lines and clearing the bar's line
	barSet bool
}

// NewProgress reports on w, with a bar when terminal is true.
func NewProgress(w io.Writer, terminal bool) *Progress {
	p := &Progress{w: w}
	if terminal {
		p.bar = progressbar.NewOptions(1, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
			progressbar.OptionSetDescription("games"), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		p.barSet = true
	}
	return p
}

// Log is the writer to give the run's logger.
func (p *Progress) Log() io.Writer { return logWriter{p} }

type logWriter struct{ p *Progress }

func (l logWriter) Write(b []byte) (int, error) {
	l.p.mu.Lock()
	defer l.p.mu.Unlock()
	if l.p.barSet {
		if _, err := io.WriteString(l.p.w, "\r\x1b[K"); err != nil {
			return 0, err
		}
	}
	return l.p.w.Write(b)
}

// Hook sets cfg.OnGame (and cfg.OnPair under a SPRT) to report.
func (p *Progress) Hook(cfg *Config) {
	cfg.OnGame = func(done, total int, rec *record.Record) {
		if p.bar != nil {
			p.bar.ChangeMax(total)
			p.bar.Set(done)
			return
		}
		fmt.Fprintf(p.w, "game %d/%d: %s vs %s: %s\n", done, total, rec.Players.X, rec.Players.O, rec.Summary())
	}
	if cfg.SPRT != nil && p.bar == nil {
		lo, hi := cfg.SPRT.Bounds()
		cfg.OnPair = func(llr float64, d stats.Decision) {
			fmt.Fprintf(p.w, "sprt: llr %.2f (%.2f, %.2f) %s\n", llr, lo, hi, d)
		}
	}
}

// Finish clears the bar at the end of the run.
func (p *Progress) Finish() {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Finish()
	p.barSet = false
}

// LogGames logs, at debug level, the host's goroutines and live bot
// processes (live) after each game, for the soak (make soak): nothing may
// grow with the games. It chains cfg.OnGame, and does nothing unless
// cfg.Logger logs at debug level.
func LogGames(cfg *Config, live func() int) {
	if cfg.Logger == nil || !cfg.Logger.IsDebug() {
		return
	}
	onGame, log := cfg.OnGame, cfg.Logger
	cfg.OnGame = func(done, total int, rec *record.Record) {
		if onGame != nil {
			onGame(done, total, rec)
		}
		log.Debug("game done", "game", done, "goroutines", runtime.NumGoroutine(), "bots", live())
	}
}
