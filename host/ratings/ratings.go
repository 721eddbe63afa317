package ratings

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
	"github.com/kinrow/kinrow/host/termsafe"
)

// DefaultPrior is the number of virtual games per pairing that the
// standings and `kinrow ratings --prior auto` fall back on when the
// maximum-likelihood estimates are not finite (BayesElo's default prior is
// 2 virtual draws; see Options.Prior for why these are not all draws).
const DefaultPrior = 2

// Options says how to rate. The zero value gives pure maximum-likelihood
// ratings with mean 0, the advantage and draw parameters fitted, and an
// error where the maximum is not finite.
type Options struct {
	// Anchor is the bot whose rating is AnchorElo; "" gives the ratings a
	// mean of 0. A group (rules string) the anchor did not play in gets
	// mean 0 and a note.
	Anchor    string
	AnchorElo float64
	// Prior is the number of virtual games of an even result added between
	// every two bots that played each other, half of them with each bot
	// moving first, a third each won, drawn and lost (a half each won and
	// lost when no game was drawn); 0 is the pure maximum-likelihood fit.
	// Unlike BayesElo's prior of virtual draws, these keep the estimates
	// finite with the draw parameter fitted: with draws alone, a draw
	// parameter growing with a rating difference would still reach the
	// likelihood's supremum at infinity.
	Prior float64
	// FallbackPrior, when positive, is the prior of a second fit made when
	// the fit with Prior has no finite maximum (a bot won or lost every
	// game, the first player scored every point); the group says so in
	// its notes.
	FallbackPrior float64
	// Advantage and DrawElo fix the first-move advantage and the draw
	// parameter (Elo) instead of fitting them.
	Advantage, DrawElo *float64
	// Rules keeps only the games of these rules (any spelling
	// engine.ParseRules accepts); "" keeps all.
	Rules string
}

// Estimate is a fitted value in Elo with its 95% interval.
type Estimate struct {
	Elo float64 `json:"elo"`
	// PlusMinus is the half-width of the 95% interval: 1.96 standard errors
	// from the observed information.
	PlusMinus float64 `json:"plus_minus"`
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	// Fixed is set for a value that was given, not fitted (the anchor's
	// rating, a fixed advantage or draw parameter).
	Fixed bool `json:"fixed,omitempty"`
}

func newEstimate(elo, variance float64) Estimate {
	pm := stats.Z975 * math.Sqrt(variance)
	return Estimate{Elo: elo, PlusMinus: pm, Low: elo - pm, High: elo + pm}
}

func fixedEstimate(elo float64) Estimate {
	return Estimate{Elo: elo, Low: elo, High: elo, Fixed: true}
}

// Rating is one bot's line of a rating list.
type Rating struct {
	Rank int    `json:"rank"`
	Bot  string `json:"bot"`
	Estimate
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Score is the mean score per game (win 1, draw ½), from 0 to 1.
	Score float64 `json:"score"`
	// DrawRatio is the fraction of the bot's games that were drawn.
	DrawRatio float64 `json:"draw_ratio"`
	// OpponentsElo is the mean rating of the bot's opponents over its games.
	OpponentsElo float64 `json:"opponents_elo"`
}

// Group is the rating list of one rules string.
type Group struct {
	Rules      string  `json:"rules"`
	Games      int     `json:"games"`
	FirstWins  int     `json:"first_wins"`
	Draws      int     `json:"draws"`
	SecondWins int     `json:"second_wins"`
	DrawRatio  float64 `json:"draw_ratio"`
	// Anchor is the bot whose rating was set, or "" when the ratings have
	// mean 0.
	Anchor    string  `json:"anchor,omitempty"`
	AnchorElo float64 `json:"anchor_elo"`
	// Prior is the number of virtual games per pairing of the fit (0: pure
	// maximum likelihood).
	Prior float64 `json:"prior"`
	// Advantage is the first-move advantage: the Elo added to the first
	// player's rating. DrawElo is BayesElo's eloDraw.
	Advantage Estimate `json:"first_move_advantage"`
	DrawElo   Estimate `json:"draw_elo"`
	// Bots are sorted by rating, best first.
	Bots       []Rating `json:"bots"`
	Notes      []string `json:"notes,omitempty"`
	Iterations int      `json:"iterations"`
	LogLik     float64  `json:"log_likelihood"`
}

// Report holds the rating lists of every rules string, sorted by rules.
type Report struct {
	Groups []*Group `json:"groups"`
	// Open counts records of unfinished games, SelfPlay games of a bot
	// against itself; neither is rated.
	Open     int `json:"open_skipped,omitempty"`
	SelfPlay int `json:"self_play_skipped,omitempty"`
}

// ParseAnchor reads an anchor given as NAME or NAME=ELO (ELO 0 when
// omitted).
func ParseAnchor(s string) (name string, elo float64, err error) {
	name, eloText, hasElo := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return "", 0, fmt.Errorf("anchor %q: want NAME or NAME=ELO", s)
	}
	if !hasElo {
		return name, 0, nil
	}
	elo, err = strconv.ParseFloat(strings.TrimSpace(eloText), 64)
	if err != nil || math.IsInf(elo, 0) || math.IsNaN(elo) {
		return "", 0, fmt.Errorf("anchor %q: ELO %q is not a finite number", s, eloText)
	}
	return name, elo, nil
}

// game is one rated game: the players' indices and the result from the
// first player's view (1, ½ or 0).
type game struct {
	x, o  int
	score float64
}

// groupData collects a rules string's games while the records are read.
type groupData struct {
	rules string
	index map[string]int
	names []string
	games []game
}

// Fit rates the finished games of recs, one rating list per rules string.
// The order of the records does not matter.
func Fit(recs []*record.Record, opts Options) (*Report, error) {
	wantRules := ""
	if opts.Rules != "" {
		r, err := engine.ParseRules(opts.Rules)
		if err != nil {
			return nil, fmt.Errorf("ratings: %w: rules: %w", ErrBadOption, err)
		}
		wantRules = r.String()
	}
	if opts.Prior < 0 || math.IsNaN(opts.Prior) || opts.FallbackPrior < 0 || math.IsNaN(opts.FallbackPrior) {
		return nil, fmt.Errorf("ratings: %w: prior %v (fallback %v): want a number of virtual games ≥ 0", ErrBadOption, opts.Prior, opts.FallbackPrior)
	}
	if d := opts.DrawElo; d != nil && (*d < 0 || math.IsNaN(*d) || math.IsInf(*d, 0)) {
		return nil, fmt.Errorf("ratings: %w: draw Elo %v: want a finite number ≥ 0", ErrBadOption, *d)
	}
	if math.IsNaN(opts.AnchorElo) || math.IsInf(opts.AnchorElo, 0) {
		return nil, fmt.Errorf("ratings: %w: anchor Elo %v: want a finite number", ErrBadOption, opts.AnchorElo)
	}
	if a := opts.Advantage; a != nil && (math.IsNaN(*a) || math.IsInf(*a, 0)) {
		return nil, fmt.Errorf("ratings: %w: advantage %v: want a finite number", ErrBadOption, *a)
	}
	rep := &Report{}
	canon := map[string]string{}
	groups := map[string]*groupData{}
	for _, rec := range recs {
		rs, ok := canon[rec.Rules]
		if !ok {
			r, err := engine.ParseRules(rec.Rules)
			if err != nil {
				return nil, fmt.Errorf("ratings: game record: %w", err)
			}
			rs = r.String()
			canon[rec.Rules] = rs
		}
		if wantRules != "" && rs != wantRules {
			continue
		}
		var score float64
		switch rec.Result {
		case "X+":
			score = 1
		case "O+":
			score = 0
		case "0":
			score = 0.5
		case "":
			rep.Open++
			continue
		default:
			return nil, fmt.Errorf("ratings: game record: result %q: want X+, O+, 0 or empty", rec.Result)
		}
		if rec.Players.X == rec.Players.O {
			rep.SelfPlay++
			continue
		}
		g := groups[rs]
		if g == nil {
			g = &groupData{rules: rs, index: map[string]int{}}
			groups[rs] = g
		}
		g.games = append(g.games, game{x: g.bot(rec.Players.X), o: g.bot(rec.Players.O), score: score})
	}
	if len(groups) == 0 {
		if wantRules != "" {
			return nil, fmt.Errorf("ratings: %w under rules %s", ErrNoGames, termsafe.Printable(wantRules))
		}
		return nil, fmt.Errorf("ratings: %w", ErrNoGames)
	}
	if opts.Anchor != "" {
		found := false
		var all []string
		for _, g := range groups {
			if _, ok := g.index[opts.Anchor]; ok {
				found = true
			}
			all = append(all, g.names...)
		}
		if !found {
			return nil, fmt.Errorf("ratings: %w %q: the games are by %s", ErrUnknownAnchor, termsafe.Printable(opts.Anchor), nameList(all))
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		grp, err := groups[k].fit(opts)
		if err != nil {
			return nil, fmt.Errorf("ratings: %s: %w", termsafe.Printable(k), err)
		}
		rep.Groups = append(rep.Groups, grp)
	}
	return rep, nil
}

func (g *groupData) bot(name string) int {
	if i, ok := g.index[name]; ok {
		return i
	}
	g.index[name] = len(g.names)
	g.names = append(g.names, name)
	return len(g.names) - 1
}

// nameList prints names sorted and deduplicated, at most 10.
func nameList(names []string) string {
	s := append([]string(nil), names...)
	sort.Strings(s)
	out := s[:0]
	for i, n := range s {
		if i == 0 || n != s[i-1] {
			out = append(out, n)
		}
	}
	more := ""
	if len(out) > 10 {
		out, more = out[:10], fmt.Sprintf(" and %d more", len(out)-10)
	}
	for i, n := range out {
		out[i] = termsafe.Printable(n)
	}
	return strings.Join(out, ", ") + more
}

// fit rates one group.
func (g *groupData) fit(opts Options) (*Group, error) {
	// Bots in name order, so that the result does not depend on the order
	// of the records.
	n := len(g.names)
	order := make([]int, n) // order[new] = old
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return g.names[order[a]] < g.names[order[b]] })
	remap := make([]int, n)
	names := make([]string, n)
	for ni, oi := range order {
		remap[oi] = ni
		names[ni] = g.names[oi]
	}
	grp := &Group{Rules: g.rules, Games: len(g.games)}
	bots := make([]Rating, n)
	for i := range bots {
		bots[i].Bot = names[i]
	}
	// counts[i*n+j] holds the games with i first and j second.
	counts := make([]cell, n*n)
	for _, gm := range g.games {
		x, o := remap[gm.x], remap[gm.o]
		c := &counts[x*n+o]
		bx, bo := &bots[x], &bots[o]
		bx.Games++
		bo.Games++
		switch gm.score {
		case 1:
			c.w++
			grp.FirstWins++
			bx.Wins++
			bo.Losses++
		case 0:
			c.l++
			grp.SecondWins++
			bo.Wins++
			bx.Losses++
		default:
			c.d++
			grp.Draws++
			bx.Draws++
			bo.Draws++
		}
	}
	grp.DrawRatio = float64(grp.Draws) / float64(grp.Games)
	for i := range bots {
		b := &bots[i]
		b.Score = (float64(b.Wins) + 0.5*float64(b.Draws)) / float64(b.Games)
		b.DrawRatio = float64(b.Draws) / float64(b.Games)
	}
	if err := connected(names, counts); err != nil {
		return nil, err
	}
	sol, prior, notes, err := solve(names, counts, opts)
	if err != nil {
		return nil, err
	}
	grp.Prior, grp.Notes = prior, notes
	grp.Iterations, grp.LogLik = sol.iterations, sol.loglik
	lay := sol.lay
	// Ratings: relative to the anchor, or to the mean.
	anchor := -1
	if opts.Anchor != "" {
		for i, nm := range names {
			if nm == opts.Anchor {
				anchor = i
			}
		}
		if anchor < 0 {
			grp.Notes = append(grp.Notes, fmt.Sprintf("anchor %s did not play these rules: the ratings have mean 0", termsafe.Printable(opts.Anchor)))
		}
	}
	var mean float64
	for _, r := range sol.r {
		mean += r / float64(n)
	}
	contrast := make([]float64, n)
	for i := range bots {
		clear(contrast)
		var elo float64
		if anchor >= 0 {
			elo = sol.r[i] - sol.r[anchor] + opts.AnchorElo
			contrast[i]++
			contrast[anchor]--
		} else {
			elo = sol.r[i] - mean
			for j := range contrast {
				contrast[j] = -1 / float64(n)
			}
			contrast[i]++
		}
		if i == anchor {
			bots[i].Estimate = fixedEstimate(elo)
		} else {
			bots[i].Estimate = newEstimate(elo, sol.variance(contrast, 0, 0))
		}
	}
	if anchor >= 0 {
		grp.Anchor, grp.AnchorElo = opts.Anchor, opts.AnchorElo
	}
	if lay.advIdx >= 0 {
		grp.Advantage = newEstimate(sol.adv, sol.variance(nil, 1, 0))
	} else {
		grp.Advantage = fixedEstimate(sol.adv)
	}
	if lay.drawIdx >= 0 {
		grp.DrawElo = newEstimate(sol.draw, sol.variance(nil, 0, 1))
	} else {
		grp.DrawElo = fixedEstimate(sol.draw)
	}
	// Opponents' mean rating over each bot's games.
	for x := 0; x < n; x++ {
		for o := 0; o < n; o++ {
			c := counts[x*n+o]
			k := c.w + c.d + c.l
			bots[x].OpponentsElo += k * bots[o].Elo
			bots[o].OpponentsElo += k * bots[x].Elo
		}
	}
	for i := range bots {
		bots[i].OpponentsElo /= float64(bots[i].Games)
	}
	sort.SliceStable(bots, func(a, b int) bool {
		if bots[a].Elo != bots[b].Elo {
			return bots[a].Elo > bots[b].Elo
		}
		return bots[a].Bot < bots[b].Bot
	})
	for i := range bots {
		bots[i].Rank = i + 1
	}
	grp.Bots = bots
	return grp, nil
}

// fitted is a solution with the facts the report needs about how it was
// found.
type fitted struct {
	*solution
	drawFixed bool
}

// solve fits the counts with opts.Prior and, when that maximum is not
// finite, with opts.FallbackPrior.
func solve(names []string, counts []cell, opts Options) (fitted, float64, []string, error) {
	f, err := solveWith(names, counts, opts, opts.Prior)
	if err == nil || !errors.Is(err, ErrNotFinite) || opts.FallbackPrior <= 0 {
		return f, opts.Prior, f.notes(opts), err
	}
	f, err2 := solveWith(names, counts, opts, opts.FallbackPrior)
	if err2 != nil {
		return f, 0, nil, fmt.Errorf("%v; with a prior of %g virtual games: %w", err, opts.FallbackPrior, err2)
	}
	notes := append([]string{fmt.Sprintf("%v; rated with a prior of %g virtual games per pairing", err, opts.FallbackPrior)}, f.notes(opts)...)
	return f, opts.FallbackPrior, notes, nil
}

func (f fitted) notes(opts Options) []string {
	if f.solution != nil && f.drawFixed && opts.DrawElo == nil {
		return []string{"no draws: the draw parameter is 0"}
	}
	return nil
}

// solveWith builds the problem with a prior of virtual games and fits it.
// The prior adds, between every two bots that met and with each of them
// first in half of them, prior games of an even result: wins, draws and
// losses in equal parts, or wins and losses only when no game was drawn (so
// that the draw parameter stays at 0 then). Virtual draws alone would not
// do: the draw parameter would grow with a rating difference to infinity.
func solveWith(names []string, counts []cell, opts Options, prior float64) (fitted, error) {
	n := len(names)
	pr := problem{n: n, fixAdv: math.NaN(), fixDraw: math.NaN()}
	var realDraws float64
	for _, c := range counts {
		realDraws += c.d
	}
	var draws, decisive float64
	for x := 0; x < n; x++ {
		for o := 0; o < n; o++ {
			c := counts[x*n+o]
			if prior > 0 && x != o {
				if met := c.w + c.d + c.l + counts[o*n+x].w + counts[o*n+x].d + counts[o*n+x].l; met > 0 {
					// prior/2 games with x first.
					if realDraws > 0 {
						c.w += prior / 6
						c.d += prior / 6
						c.l += prior / 6
					} else {
						c.w += prior / 4
						c.l += prior / 4
					}
				}
			}
			if c.w+c.d+c.l == 0 {
				continue
			}
			c.x, c.o = x, o
			pr.cells = append(pr.cells, c)
			draws += c.d
			decisive += c.w + c.l
		}
	}
	total := draws + decisive
	if decisive == 0 && opts.DrawElo == nil {
		return fitted{}, fmt.Errorf("%w: every game was drawn: the draw parameter runs to infinity", ErrNotFinite)
	}
	if opts.Advantage != nil {
		pr.fixAdv = *opts.Advantage
	}
	f := fitted{}
	switch {
	case opts.DrawElo != nil:
		if *opts.DrawElo == 0 && draws > 0 {
			return f, fmt.Errorf("%w: a draw Elo of 0 allows no draws, but %g games (virtual ones included) were drawn", ErrBadOption, draws)
		}
		pr.fixDraw = *opts.DrawElo
	case draws == 0:
		// Without draws the likelihood falls as the draw parameter rises:
		// its maximum is at the bound 0.
		pr.fixDraw = 0
		f.drawFixed = true
	}
	if prior == 0 {
		if err := stronglyConnected(names, counts); err != nil {
			return f, err
		}
	}
	// Start the draw parameter where it gives the observed draw ratio
	// between equal bots: 1 − 2F(−d) = draws/total.
	initDraw := 0.0
	if draws > 0 {
		q := (1 - draws/total) / 2
		initDraw = -stats.EloFromScore(q)
	}
	sol, err := pr.fit(initDraw)
	if err != nil {
		if errors.Is(err, ErrNotDetermined) {
			err = fmt.Errorf("%w (are the first-move advantage and the ratings told apart? every pairing played with one colour order leaves them confounded; fix the advantage)", err)
		}
		return f, err
	}
	f.solution = sol
	return f, nil
}

// connected checks that every bot is linked to every other by games.
func connected(names []string, counts []cell) error {
	n := len(names)
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := 0; j < n; j++ {
			a, b := counts[i*n+j], counts[j*n+i]
			if !seen[j] && a.w+a.d+a.l+b.w+b.d+b.l > 0 {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	var in, out []string
	for i, s := range seen {
		if s {
			in = append(in, names[i])
		} else {
			out = append(out, names[i])
		}
	}
	if len(out) > 0 {
		return fmt.Errorf("%w: no games link %s to %s, directly or through other bots: their ratings cannot be compared; rate them separately", ErrNotDetermined, nameList(in), nameList(out))
	}
	return nil
}

// stronglyConnected checks the condition for finite maximum-likelihood
// ratings: for every split of the bots into two sets, each set scored some
// point (a win or a draw) against the other. It returns an error wrapping
// ErrNotFinite naming a set that scored every point against the rest.
func stronglyConnected(names []string, counts []cell) error {
	n := len(names)
	// scored(i, j): i won or drew a game against j.
	scored := func(i, j int) bool {
		a, b := counts[i*n+j], counts[j*n+i]
		return a.w+a.d+b.l+b.d > 0
	}
	reach := func(forward bool) []bool {
		seen := make([]bool, n)
		seen[0] = true
		stack := []int{0}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := 0; j < n; j++ {
				e := scored(i, j)
				if !forward {
					e = scored(j, i)
				}
				if !seen[j] && e {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return seen
	}
	// Bots 0 scored against, transitively (the bots it "beats"), and the
	// bots that scored against 0, transitively.
	down, up := reach(true), reach(false)
	var top, rest []string
	for i := 0; i < n; i++ {
		switch {
		case !down[i]:
			// i is never reached from 0: the set reaching i but not
			// reached by 0 scored everything against 0's side. Report the
			// bots 0 cannot score against.
			top = append(top, names[i])
		case !up[i]:
			rest = append(rest, names[i])
		}
	}
	if len(top) > 0 {
		return fmt.Errorf("%w: %s scored every point against %s", ErrNotFinite, nameList(top), nameList(complement(names, top)))
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: %s scored every point against %s", ErrNotFinite, nameList(complement(names, rest)), nameList(rest))
	}
	return nil
}

func complement(all, some []string) []string {
	in := map[string]bool{}
	for _, s := range some {
		in[s] = true
	}
	var out []string
	for _, a := range all {
		if !in[a] {
			out = append(out, a)
		}
	}
	return out
}
