package match

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
	"github.com/kinrow/kinrow/host/termsafe"
)

// PairingStats are the results of one pairing, from bot A's view.
type PairingStats struct {
	A, B string
	WDL  stats.WDL
	// AsX and AsO split WDL by the side bot A played (x moves first).
	AsX, AsO stats.WDL
	Penta    stats.Penta
	Elo      stats.Estimate // from W/D/L
	PentaElo stats.Estimate // from the pairs
	LOS      float64
	// Forfeits counts each bot's forfeits by reason.
	Forfeits map[string]map[record.Forfeit]int
	// MoveMS holds the median and maximum time per move of each bot.
	MedianMS, MaxMS map[string]int64
	// pending holds the first game's score of each unfinished pair.
	pending map[int]float64
	times   map[string][]int64
}

// Summary is the result of a run.
type Summary struct {
	Rules       string
	Pairings    []*PairingStats
	Games       int
	Decision    stats.Decision
	Interrupted bool
	// Records are the games counted, those of a resumed --out first, in
	// the order they were counted.
	Records []*record.Record
	// Skipped are the records of a resumed --out left out by
	// Config.SkipInvalid, each an error naming file:line and why.
	Skipped []error
	// Unsigned counts the unsigned records of a resumed --out accepted
	// by Config.AllowUnsigned.
	Unsigned int
	cfg      *Config
	pairs    [][2]int
}

func newSummary(cfg *Config) *Summary {
	s := &Summary{Rules: cfg.Rules.String(), cfg: cfg, pairs: Pairings(len(cfg.Bots), cfg.Gauntlet)}
	for _, p := range s.pairs {
		a, b := cfg.displayNames(p[0], p[1])
		s.Pairings = append(s.Pairings, &PairingStats{
			A: a, B: b,
			Forfeits: map[string]map[record.Forfeit]int{a: {}, b: {}},
			MedianMS: map[string]int64{}, MaxMS: map[string]int64{},
			pending: map[int]float64{}, times: map[string][]int64{},
		})
	}
	return s
}

// checkResumable tells whether a record belongs to this run.
func (s *Summary) checkResumable(rec *record.Record) error {
	if rec.Rules != s.Rules {
		return fmt.Errorf("the file holds games of %s; this run plays %s", termsafe.Printable(rec.Rules), s.Rules)
	}
	if rec.Round < 1 || rec.Round > len(s.Pairings) {
		return fmt.Errorf("the file holds round %d; this run has %d pairings", rec.Round, len(s.Pairings))
	}
	ps := s.Pairings[rec.Round-1]
	players := []string{rec.Players.X, rec.Players.O}
	slices.Sort(players)
	want := []string{ps.A, ps.B}
	slices.Sort(want)
	if !slices.Equal(players, want) {
		return fmt.Errorf("round %d of the file is %s vs %s; this run's is %s vs %s", rec.Round,
			termsafe.Printable(rec.Players.X), termsafe.Printable(rec.Players.O), termsafe.Printable(ps.A), termsafe.Printable(ps.B))
	}
	return nil
}

// checkScheduled tells whether a record of a previous run is a finished
// game of this run's schedule (jobs by round and game), with the
// schedule's colours and opening.
func (s *Summary) checkScheduled(rec *record.Record, jobs map[[2]int]Job) error {
	if err := s.checkResumable(rec); err != nil {
		return err
	}
	j, ok := jobs[[2]int{rec.Round, rec.Game}]
	if !ok {
		if sh := s.cfg.Shard; !sh.Whole() && rec.Game >= 1 && rec.Game <= s.cfg.Games {
			return fmt.Errorf("round %d game %d is outside shard %s of the schedule (another --shard?)", rec.Round, rec.Game, sh)
		}
		return fmt.Errorf("round %d game %d is outside the schedule: this run plays games 1 to %d of each round (another --games?)",
			rec.Round, rec.Game, s.cfg.Games)
	}
	x, o := s.cfg.displayNames(j.X, j.O)
	if rec.Players.X != x || rec.Players.O != o {
		return fmt.Errorf("round %d game %d has x %s and o %s; this run's schedule has x %s and o %s",
			rec.Round, rec.Game, termsafe.Printable(rec.Players.X), termsafe.Printable(rec.Players.O), termsafe.Printable(x), termsafe.Printable(o))
	}
	rules := s.cfg.Rules
	want := make([]string, len(j.Opening))
	for i, m := range j.Opening {
		want[i] = rules.FormatMove(m)
	}
	got := make([]string, 0, rec.Opening)
	for i := 0; i < rec.Opening && i < len(rec.Moves); i++ {
		got = append(got, rec.Moves[i].Move)
	}
	if rec.Opening != len(j.Opening) || !slices.Equal(got, want) {
		return fmt.Errorf("round %d game %d opens with %q; this run's schedule opens it with %q (another --seed, --openings or --random-plies?)",
			rec.Round, rec.Game, strings.Join(got, " "), strings.Join(want, " "))
	}
	if err := checkFinished(rec); err != nil {
		return err
	}
	// Last, so that the checks above name what differs when they can.
	// Records written before schedules had identities have none.
	if rec.Schedule != "" && rec.Schedule != s.cfg.scheduleID {
		return fmt.Errorf("round %d game %d belongs to schedule %s; this run's is %s: another setting (--movetime/--tc, --max-plies, --bot-opt, --seed, --openings, ...) makes other games",
			rec.Round, rec.Game, termsafe.Printable(rec.Schedule), s.cfg.scheduleID)
	}
	return nil
}

// checkFinished tells whether a record is a finished game whose result,
// reason and winner agree.
func checkFinished(rec *record.Record) error {
	var winner string
	switch rec.Result {
	case "X+":
		winner = rec.Players.X
	case "O+":
		winner = rec.Players.O
	case "0":
	default:
		return fmt.Errorf("round %d game %d is not a finished game (result %q)", rec.Round, rec.Game, rec.Result)
	}
	if rec.Reason == record.ReasonNone || (winner == "") != (rec.Winner == nil) || (rec.Winner != nil && *rec.Winner != winner) {
		return fmt.Errorf("round %d game %d: result %q, reason %q and winner do not agree", rec.Round, rec.Game, rec.Result, rec.Reason)
	}
	return nil
}

// add counts one finished game and reports whether it completed a pair.
func (s *Summary) add(rec *record.Record) (pairDone bool) {
	if rec.Round < 1 || rec.Round > len(s.Pairings) {
		return false
	}
	s.Games++
	s.Records = append(s.Records, rec)
	ps := s.Pairings[rec.Round-1]
	scoreA := 0.5
	switch {
	case rec.Winner == nil:
	case *rec.Winner == ps.A:
		scoreA = 1
	default:
		scoreA = 0
	}
	side := &ps.AsO
	if rec.Players.X == ps.A {
		side = &ps.AsX
	}
	for _, w := range []*stats.WDL{&ps.WDL, side} {
		switch scoreA {
		case 1:
			w.W++
		case 0:
			w.L++
		default:
			w.D++
		}
	}
	pair := (rec.Game + 1) / 2
	if first, ok := ps.pending[pair]; ok {
		ps.Penta.Add(first, scoreA)
		delete(ps.pending, pair)
		pairDone = true
	} else {
		ps.pending[pair] = scoreA
	}
	if rec.Reason == record.ReasonForfeit && rec.Winner != nil {
		loser := rec.Players.X
		if *rec.Winner == rec.Players.X {
			loser = rec.Players.O
		}
		if ps.Forfeits[loser] != nil {
			ps.Forfeits[loser][rec.Forfeit]++
		}
	}
	for i, m := range rec.Moves {
		if i < rec.Opening {
			continue
		}
		name := rec.Players.X
		if m.Color == "o" {
			name = rec.Players.O
		}
		ps.times[name] = append(ps.times[name], m.MS)
	}
	for name, ts := range ps.times {
		sorted := slices.Clone(ts)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
		ps.MedianMS[name] = sorted[len(sorted)/2]
		ps.MaxMS[name] = sorted[len(sorted)-1]
	}
	ps.Elo = ps.WDL.Elo()
	ps.PentaElo = ps.Penta.Elo()
	ps.LOS = ps.WDL.LOS()
	return pairDone
}

// sprt returns the log-likelihood ratio and decision of the only pairing.
func (s *Summary) sprt(t stats.SPRT) (float64, stats.Decision) {
	p := s.Pairings[0].Penta
	llr := t.LLR(p)
	return llr, t.DecideLLR(llr)
}
