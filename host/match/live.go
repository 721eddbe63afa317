package match

import (
	"fmt"
	"strings"
	"sync"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
	"github.com/kinrow/kinrow/host/view"
)

// liveMatch feeds a running match to the viewer's hub (kinrow match
// --view): games as they start, their moves, their records when they end,
// and the summary table after every game.
type liveMatch struct {
	hub  *view.Hub
	sprt *stats.SPRT

	mu    sync.Mutex
	ids   map[[2]int]int // (round, game) → the hub's game id
	rows  map[int]*view.SummaryRow
	order []int // rounds in the order their first game ended
	llr   *float64
	dec   stats.Decision
	done  int // games finished, of total
	total int
}

// Watch hooks the viewer's live hub to cfg's callbacks (kinrow match
// --view), chaining the ones already set.
func Watch(hub *view.Hub, cfg *Config) {
	l := &liveMatch{hub: hub, sprt: cfg.SPRT, ids: map[[2]int]int{}, rows: map[int]*view.SummaryRow{}}
	cfg.OnGameStart = l.started
	cfg.OnMove = l.moved
	onGame, onPair := cfg.OnGame, cfg.OnPair
	cfg.OnGame = func(done, total int, rec *record.Record) {
		if onGame != nil {
			onGame(done, total, rec)
		}
		l.ended(done, total, rec)
	}
	cfg.OnPair = func(llr float64, d stats.Decision) {
		if onPair != nil {
			onPair(llr, d)
		}
		l.mu.Lock()
		l.llr, l.dec = &llr, d
		sum := l.summaryLocked()
		l.mu.Unlock()
		switch {
		case d != stats.Continue: // the run stops: the games still playing are abandoned
			l.hub.Summary(sum)
			l.hub.MatchEnded("SPRT: " + d.String())
		case sum.Done >= sum.Total: // the last game ends a pair
			l.hub.Summary(sum)
			l.hub.MatchEnded(fmt.Sprintf("all %d games played", sum.Total))
		}
	}
}

func (l *liveMatch) id(rec *record.Record) int {
	key := [2]int{rec.Round, rec.Game}
	id, ok := l.ids[key]
	if !ok {
		id = len(l.ids) + 1
		l.ids[key] = id
	}
	return id
}

func (l *liveMatch) started(rec *record.Record) {
	rules, err := engine.ParseRules(rec.Rules)
	if err != nil {
		return
	}
	l.mu.Lock()
	id := l.id(rec)
	l.mu.Unlock()
	l.hub.GameStarted(view.GameInfo{ID: id, Round: rec.Round, Game: rec.Game, Rules: rules, Players: rec.Players})
	for _, mv := range rec.Moves { // the opening
		if m, err := rules.ParseMove(mv.Move); err == nil {
			l.hub.Move(id, m, mv.MS, nil)
		}
	}
}

func (l *liveMatch) moved(rec *record.Record, m engine.Move) {
	l.mu.Lock()
	id := l.id(rec)
	l.mu.Unlock()
	last := rec.Moves[len(rec.Moves)-1]
	l.hub.Move(id, m, last.MS, searchInfo(last.Search))
}

// searchInfo is the page's form of a bot's last search report (nil when
// the bot reported none).
func searchInfo(s *record.Search) *view.SearchInfo {
	if s == nil {
		return nil
	}
	return &view.SearchInfo{Depth: s.Depth, Score: fmt.Sprintf("%+d", s.Score), Nodes: s.Nodes, PV: strings.Join(s.PV, " ")}
}

// ended passes the finished record on and the summary so far: one row per
// pairing, from the side of the bot that had x in the pairing's first
// finished game.
func (l *liveMatch) ended(done, total int, rec *record.Record) {
	l.mu.Lock()
	id := l.id(rec)
	row, ok := l.rows[rec.Round]
	if !ok {
		row = &view.SummaryRow{A: rec.Players.X, B: rec.Players.O}
		l.rows[rec.Round] = row
		l.order = append(l.order, rec.Round)
	}
	switch {
	case rec.Winner == nil:
		row.Draws++
	case *rec.Winner == row.A:
		row.Wins++
	default:
		row.Losses++
	}
	e := stats.WDL{W: row.Wins, D: row.Draws, L: row.Losses}.Elo()
	row.Elo, row.EloErr = finite(e.Elo), finite(eloError(e))
	l.done, l.total = done, total
	sum := l.summaryLocked()
	l.mu.Unlock()
	l.hub.GameEnded(id, rec)
	l.hub.Summary(sum)
	if done >= total && l.sprt == nil { // with a SPRT, after its last pair (OnPair)
		l.hub.MatchEnded(fmt.Sprintf("all %d games played", total))
	}
}

// summaryLocked is the summary table so far; l.mu is held.
func (l *liveMatch) summaryLocked() view.Summary {
	sum := view.Summary{Done: l.done, Total: l.total}
	for _, r := range l.order {
		sum.Rows = append(sum.Rows, *l.rows[r])
	}
	if l.sprt != nil && l.llr != nil && len(sum.Rows) == 1 {
		lo, hi := l.sprt.Bounds()
		llr := *l.llr
		sum.Rows[0].LLR, sum.Rows[0].LLRLower, sum.Rows[0].LLRUpper = &llr, lo, hi
		if l.dec != stats.Continue {
			sum.Decision = l.dec.String()
		}
	}
	return sum
}
