package match

import (
	"fmt"
	"io"
	"runtime"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/progress"
	"github.com/kinrow/kinrow/host/stats"
)

// Progress reports a run's games as they end (kinrow match on stderr)
// through host/progress: a progress bar when the output is a terminal,
// else a line a game and, under a SPRT, a line a pair. Log lines written
// through Log never land inside the bar's line.
type Progress struct{ r *progress.Reporter }

// NewProgress reports on w, with a bar when terminal is true.
func NewProgress(w io.Writer, terminal bool) *Progress {
	return &Progress{progress.New(w, "games", terminal, 0)}
}

// Log is the writer to give the run's logger.
func (p *Progress) Log() io.Writer { return p.r.Log() }

// Hook sets cfg.OnGame (and cfg.OnPair under a SPRT) to report.
func (p *Progress) Hook(cfg *Config) {
	cfg.OnGame = func(done, total int, rec *record.Record) {
		p.r.Update(done, total, func() string {
			return fmt.Sprintf("game %d/%d: %s vs %s: %s", done, total, rec.Players.X, rec.Players.O, rec.Summary())
		})
	}
	if cfg.SPRT != nil && !p.r.Bar() {
		lo, hi := cfg.SPRT.Bounds()
		cfg.OnPair = func(llr float64, d stats.Decision) {
			p.r.Line(fmt.Sprintf("sprt: llr %.2f (%.2f, %.2f) %s", llr, lo, hi, d))
		}
	}
}

// Finish clears the bar at the end of the run.
func (p *Progress) Finish() { p.r.Finish() }

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
