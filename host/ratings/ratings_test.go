package ratings

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/stats"
)

const testRules = "connectx:6x7x4"

// games appends n records of x (first) against o with result res.
func games(recs []*record.Record, x, o, res string, n int) []*record.Record {
	for range n {
		recs = append(recs, &record.Record{Rules: testRules, Players: record.Players{X: x, O: o}, Result: res})
	}
	return recs
}

// pairing appends the games of x moving first against o: w wins of x, d
// draws, l wins of o.
func pairing(recs []*record.Record, x, o string, w, d, l int) []*record.Record {
	recs = games(recs, x, o, "X+", w)
	recs = games(recs, x, o, "0", d)
	return games(recs, x, o, "O+", l)
}

// scoreElo is the match's Elo of docs/MATCHES.md (host/stats): the logistic
// model's 400·log10(s/(1−s)) of a mean score s.
func scoreElo(s float64) float64 { return 400 * math.Log10(s/(1-s)) }

// cellX is, for a colour cell of n games with w first-player wins and l
// second-player wins, the x = r_first − r_second + adv at which the model
// reproduces the cell's frequencies: F(x−d) = w/n and F(−x−d) = l/n give
// x = (E(w/n) − E(l/n))/2 = 200·log10(w(n−l) / (l(n−w))).
func cellX(w, d, l int) float64 {
	n := float64(w + d + l)
	return 200 * math.Log10(float64(w)*(n-float64(l))/(float64(l)*(n-float64(w))))
}

// cellDraw is the draw parameter the same cell alone implies:
// −(E(w/n) + E(l/n))/2.
func cellDraw(w, d, l int) float64 {
	n := float64(w + d + l)
	return -(scoreElo(float64(w)/n) + scoreElo(float64(l)/n)) / 2
}

func fitOne(t *testing.T, recs []*record.Record, opts Options) *Group {
	t.Helper()
	rep, err := Fit(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Groups) != 1 {
		t.Fatalf("%d groups, want 1", len(rep.Groups))
	}
	return rep.Groups[0]
}

func botOf(t *testing.T, g *Group, name string) Rating {
	t.Helper()
	for _, b := range g.Bots {
		if b.Bot == name {
			return b
		}
	}
	t.Fatalf("no bot %s in %+v", name, g.Bots)
	return Rating{}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.9g, want %.9g (±%g)", what, got, want, tol)
	}
}

// Two bots without draws: the model is then the logistic model of each
// colour cell, and the fit reproduces both cells. With A scoring pX as the
// first player and pO as the second, the rating difference is
// Δ = (E(pX) + E(pO))/2 and the advantage (E(pX) − E(pO))/2, where
// E(p) = 400·log10(p/(1−p)); when A scores the same p with both colours,
// Δ = E(p), the match's Elo, exactly, and the advantage is 0.
func TestTwoBotsWithoutDrawsMatchElo(t *testing.T) {
	for _, tc := range []struct {
		name                string
		n, winsAsX, winsAsO int // A's wins as first and as second player, of n games each
		wantSameAsMatch     bool
	}{
		{"equal", 40, 20, 20, true},
		{"A stronger, colours alike", 50, 35, 35, true},
		{"A weaker, colours alike", 100, 23, 23, true},
		{"first-move advantage", 100, 80, 40, false},
		{"second player better", 60, 20, 30, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []*record.Record
			recs = pairing(recs, "A", "B", tc.winsAsX, 0, tc.n-tc.winsAsX)
			recs = pairing(recs, "B", "A", tc.n-tc.winsAsO, 0, tc.winsAsO)
			g := fitOne(t, recs, Options{Anchor: "B"})
			pX := float64(tc.winsAsX) / float64(tc.n)
			pO := float64(tc.winsAsO) / float64(tc.n)
			delta := botOf(t, g, "A").Elo
			near(t, "Δ", delta, (scoreElo(pX)+scoreElo(pO))/2, 1e-7)
			near(t, "advantage", g.Advantage.Elo, (scoreElo(pX)-scoreElo(pO))/2, 1e-7)
			if tc.wantSameAsMatch {
				near(t, "Δ vs the match's Elo", delta, scoreElo(float64(tc.winsAsX+tc.winsAsO)/float64(2*tc.n)), 1e-7)
			}
			if !g.DrawElo.Fixed || g.DrawElo.Elo != 0 || len(g.Notes) == 0 {
				t.Errorf("draw parameter %+v, notes %q: want fixed at 0 with a note", g.DrawElo, g.Notes)
			}
			// The interval by hand: each cell is logistic with
			// Var(x_k) = 1/(n·s²·p(1−p)), s = ln10/400, and Δ = (x1−x2)/2.
			s := math.Ln10 / 400
			v := (1/(float64(tc.n)*s*s*pX*(1-pX)) + 1/(float64(tc.n)*s*s*pO*(1-pO))) / 4
			near(t, "Δ's ±", botOf(t, g, "A").PlusMinus, 1.959963984540054*math.Sqrt(v), 1e-7)
			near(t, "advantage's ±", g.Advantage.PlusMinus, 1.959963984540054*math.Sqrt(v), 1e-7)
			if b := botOf(t, g, "B"); b.Elo != 0 || !b.Fixed || b.PlusMinus != 0 {
				t.Errorf("anchor B: %+v, want fixed at 0", b)
			}
		})
	}
}

// Two bots with draws: when both colour cells imply the same draw
// parameter (w₁l₁/((n₁−w₁)(n₁−l₁)) = w₂l₂/((n₂−w₂)(n₂−l₂))), the fit
// reproduces every cell exactly, so with x_k = 200·log10(w_k(n_k−l_k) /
// (l_k(n_k−w_k))) for the cells (A first: x₁ = Δ + adv; B first: x₂ = −Δ +
// adv), Δ = (x₁ − x₂)/2, adv = (x₁ + x₂)/2 and draw = −(E(w₁/n₁) +
// E(l₁/n₁))/2. Draws make Δ differ from the score's Elo: a draw counts as
// half a win and half a loss in the score, but in BayesElo's model it is
// evidence of equal strength.
func TestTwoBotsWithDraws(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c1, c2 [3]int // A first: A wins, draws, B wins; B first: B wins, draws, A wins
	}{
		// 60·20/(40·80) = 40·36/(60·64) = 0.375.
		{"advantage and difference", [3]int{60, 20, 20}, [3]int{40, 24, 36}},
		// Colours alike: adv = 0 and Δ = x₁.
		{"colours alike", [3]int{50, 30, 20}, [3]int{20, 30, 50}},
		{"equal bots", [3]int{30, 40, 30}, [3]int{30, 40, 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []*record.Record
			recs = pairing(recs, "A", "B", tc.c1[0], tc.c1[1], tc.c1[2])
			recs = pairing(recs, "B", "A", tc.c2[0], tc.c2[1], tc.c2[2])
			if d1, d2 := cellDraw(tc.c1[0], tc.c1[1], tc.c1[2]), cellDraw(tc.c2[0], tc.c2[1], tc.c2[2]); math.Abs(d1-d2) > 1e-9 {
				t.Fatalf("test case: the cells imply draw parameters %v and %v", d1, d2)
			}
			g := fitOne(t, recs, Options{})
			x1, x2 := cellX(tc.c1[0], tc.c1[1], tc.c1[2]), cellX(tc.c2[0], tc.c2[1], tc.c2[2])
			a, b := botOf(t, g, "A"), botOf(t, g, "B")
			near(t, "Δ", a.Elo-b.Elo, (x1-x2)/2, 1e-7)
			near(t, "mean", a.Elo+b.Elo, 0, 1e-7)
			near(t, "advantage", g.Advantage.Elo, (x1+x2)/2, 1e-7)
			near(t, "draw", g.DrawElo.Elo, cellDraw(tc.c1[0], tc.c1[1], tc.c1[2]), 1e-7)
			if g.Draws != tc.c1[1]+tc.c2[1] || a.Games != g.Games || a.Draws != g.Draws {
				t.Errorf("counts: %+v, %+v", g, a)
			}
			if tc.name == "colours alike" {
				matchElo := scoreElo(a.Score)
				if a.Elo-b.Elo <= matchElo {
					t.Errorf("Δ %v should exceed the score's Elo %v: the draws, half a point each in the score, say little about the difference in the model", a.Elo-b.Elo, matchElo)
				}
			}
		})
	}
}

// Three bots in a cycle, each beating the next by the same score with
// colours swapped: equal ratings, no advantage.
func TestCycleGivesEqualRatings(t *testing.T) {
	for _, draws := range []int{0, 5} {
		var recs []*record.Record
		for _, p := range [][2]string{{"A", "B"}, {"B", "C"}, {"C", "A"}} {
			recs = pairing(recs, p[0], p[1], 7, draws, 3)
			recs = pairing(recs, p[1], p[0], 3, draws, 7)
		}
		g := fitOne(t, recs, Options{})
		for _, b := range g.Bots {
			near(t, b.Bot, b.Elo, 0, 1e-7)
			near(t, b.Bot+" score", b.Score, 0.5, 1e-12)
			if !(b.PlusMinus > 0) {
				t.Errorf("%s: ± %v", b.Bot, b.PlusMinus)
			}
		}
		near(t, "advantage", g.Advantage.Elo, 0, 1e-7)
	}
}

// simulate plays every pair of bots games times (colours alternating) under
// the model with true ratings, advantage and draw parameter.
func simulate(rng *rand.Rand, names []string, truth []float64, adv, draw float64, perPair int) []*record.Record {
	F := func(x float64) float64 { return 1 / (1 + math.Pow(10, -x/400)) }
	var recs []*record.Record
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			for k := range perPair {
				x, o := i, j
				if k%2 == 1 {
					x, o = j, i
				}
				pw := F(truth[x] - truth[o] + adv - draw)
				pl := F(truth[o] - truth[x] - adv - draw)
				u := rng.Float64()
				res := "0"
				switch {
				case u < pw:
					res = "X+"
				case u < pw+pl:
					res = "O+"
				}
				recs = games(recs, names[x], names[o], res, 1)
			}
		}
	}
	return recs
}

// Games drawn from known strengths: the estimates fall within their
// intervals about as often as 95% intervals should, their errors measured
// in standard errors have a spread near 1, and none is far out.
func TestSimulationRecoversStrengths(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f"}
	truth := []float64{-250, -120, -30, 0, 90, 310}
	const adv, draw = 45, 110
	var mean float64
	for _, r := range truth {
		mean += r / float64(len(truth))
	}
	rng := rand.New(rand.NewPCG(19, 2026))
	var covered, total int
	var sumZ2 float64
	check := func(what string, e Estimate, want float64) {
		se := e.PlusMinus / stats.Z975
		z := (e.Elo - want) / se
		if math.Abs(z) > 4.5 {
			t.Errorf("%s = %.1f ± %.1f, truth %.1f: %.1f standard errors off", what, e.Elo, e.PlusMinus, want, z)
		}
		if e.Low <= want && want <= e.High {
			covered++
		}
		total++
		sumZ2 += z * z
	}
	for rep := range 40 {
		recs := simulate(rng, names, truth, adv, draw, 100)
		g := fitOne(t, recs, Options{})
		if g.Draws == 0 || g.FirstWins <= g.SecondWins {
			t.Fatalf("simulation: %d draws, first %d, second %d", g.Draws, g.FirstWins, g.SecondWins)
		}
		for i, n := range names {
			check(n, botOf(t, g, n).Estimate, truth[i]-mean)
		}
		check("advantage", g.Advantage, adv)
		check("draw", g.DrawElo, draw)
		_ = rep
	}
	coverage := float64(covered) / float64(total)
	rms := math.Sqrt(sumZ2 / float64(total))
	t.Logf("coverage of the 95%% intervals %.3f over %d, rms z %.3f", coverage, total, rms)
	if coverage < 0.88 || coverage > 0.995 {
		t.Errorf("coverage %.3f of 95%% intervals", coverage)
	}
	if rms < 0.8 || rms > 1.25 {
		t.Errorf("estimates off by %.2f standard errors (rms), want about 1", rms)
	}
}

// The order of the records, and of the files, does not change anything.
func TestOrderDoesNotMatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	names := []string{"zeta", "alpha", "mid", "beta"}
	recs := simulate(rng, names, []float64{100, -50, 0, 20}, 30, 80, 30)
	// A second rules string, played by some of the same bots.
	for _, r := range simulate(rng, names[:3], []float64{0, 40, -40}, 10, 50, 20) {
		r.Rules = "gomoku"
		recs = append(recs, r)
	}
	want, err := Fit(recs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wantJSON bytes.Buffer
	want.WriteJSON(&wantJSON)
	for i := range 5 {
		shuffled := append([]*record.Record(nil), recs...)
		rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		if i == 0 {
			for a, b := 0, len(shuffled)-1; a < b; a, b = a+1, b-1 {
				shuffled[a], shuffled[b] = shuffled[b], shuffled[a]
			}
		}
		got, err := Fit(shuffled, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var gotJSON bytes.Buffer
		got.WriteJSON(&gotJSON)
		if gotJSON.String() != wantJSON.String() {
			t.Fatalf("shuffle %d changed the report:\n%s\nwant\n%s", i, gotJSON.String(), wantJSON.String())
		}
	}
	if len(want.Groups) != 2 || want.Groups[0].Rules != "connectx:6x7x4" || want.Groups[1].Rules != "mnk:15x15x5" {
		t.Errorf("groups: %v, %v", want.Groups[0].Rules, want.Groups[1].Rules)
	}
}

// An anchor shifts every rating by the same amount, takes no interval, and
// leaves the differences, the advantage and the draw parameter alone.
func TestAnchor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := []string{"p", "q", "r", "s"}
	recs := simulate(rng, names, []float64{-100, 0, 50, 200}, 30, 90, 60)
	base := fitOne(t, recs, Options{})
	for _, tc := range []struct {
		name string
		elo  float64
	}{{"q", 0}, {"s", 1500}, {"p", -42.5}} {
		g := fitOne(t, recs, Options{Anchor: tc.name, AnchorElo: tc.elo})
		if g.Anchor != tc.name || g.AnchorElo != tc.elo {
			t.Errorf("anchor %q=%v reported as %q=%v", tc.name, tc.elo, g.Anchor, g.AnchorElo)
		}
		a := botOf(t, g, tc.name)
		if a.Elo != tc.elo || !a.Fixed || a.PlusMinus != 0 {
			t.Errorf("anchor %s: %+v", tc.name, a)
		}
		shift := tc.elo - botOf(t, base, tc.name).Elo
		for _, n := range names {
			near(t, n, botOf(t, g, n).Elo, botOf(t, base, n).Elo+shift, 1e-7)
			if n != tc.name && !(botOf(t, g, n).PlusMinus > botOf(t, base, n).PlusMinus) {
				// Relative to one bot an interval is wider than relative
				// to the mean of four.
				t.Errorf("%s: ± %v against the anchor, %v against the mean", n, botOf(t, g, n).PlusMinus, botOf(t, base, n).PlusMinus)
			}
		}
		near(t, "advantage", g.Advantage.Elo, base.Advantage.Elo, 1e-7)
		near(t, "draw", g.DrawElo.Elo, base.DrawElo.Elo, 1e-7)
	}
	// A group the anchor did not play in gets mean 0 and a note.
	other := games(nil, "x", "y", "X+", 3)
	other = games(other, "y", "x", "X+", 2)
	other = games(other, "x", "y", "O+", 1)
	other = games(other, "y", "x", "O+", 2)
	for _, r := range other {
		r.Rules = "gomoku"
	}
	rep, err := Fit(append(recs, other...), Options{Anchor: "s", AnchorElo: 100})
	if err != nil {
		t.Fatal(err)
	}
	gom := rep.Groups[1]
	if gom.Anchor != "" || !strings.Contains(strings.Join(gom.Notes, "\n"), "anchor s did not play") {
		t.Errorf("group without the anchor: anchor %q, notes %q", gom.Anchor, gom.Notes)
	}
	near(t, "mean without the anchor", botOf(t, gom, "x").Elo+botOf(t, gom, "y").Elo, 0, 1e-7)
}

func TestParseAnchor(t *testing.T) {
	for _, tc := range []struct {
		in      string
		name    string
		elo     float64
		wantErr string
	}{
		{"alphabeta", "alphabeta", 0, ""},
		{"alphabeta=1500", "alphabeta", 1500, ""},
		{"random=-200.5", "random", -200.5, ""},
		{"mics(depth=3)=10", "mics(depth", 0, "not a finite number"},
		{"=100", "", 0, "want NAME"},
		{"", "", 0, "want NAME"},
		{"x=", "", 0, "not a finite number"},
		{"x=abc", "", 0, "not a finite number"},
		{"x=Inf", "", 0, "not a finite number"},
		{"x=NaN", "", 0, "not a finite number"},
		{"x=1e400", "", 0, "not a finite number"},
	} {
		name, elo, err := ParseAnchor(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseAnchor(%q) = %q, %v, %v; want an error with %q", tc.in, name, elo, err, tc.wantErr)
			}
			continue
		}
		if err != nil || name != tc.name || elo != tc.elo {
			t.Errorf("ParseAnchor(%q) = %q, %v, %v; want %q, %v", tc.in, name, elo, err, tc.name, tc.elo)
		}
	}
}

func TestBadInput(t *testing.T) {
	twoBots := pairing(pairing(nil, "A", "B", 3, 1, 2), "B", "A", 2, 1, 3)
	zero := 0.0
	for _, tc := range []struct {
		name    string
		recs    []*record.Record
		opts    Options
		is      error
		wantErr string
	}{
		{"no games", nil, Options{}, ErrNoGames, "no finished games"},
		{"only open games", games(nil, "A", "B", "", 4), Options{}, ErrNoGames, "no finished games"},
		{"unknown anchor", twoBots, Options{Anchor: "C"}, ErrUnknownAnchor, `unknown anchor "C": the games are by A, B`},
		{"no games under the rules", twoBots, Options{Rules: "gomoku"}, ErrNoGames, "no finished games to rate under rules mnk:15x15x5"},
		{"bad rules option", twoBots, Options{Rules: "chess"}, ErrBadOption, "rules"},
		{"negative prior", twoBots, Options{Prior: -1}, ErrBadOption, "prior"},
		{"negative draw Elo", twoBots, Options{DrawElo: ptr(-3)}, ErrBadOption, "draw Elo"},
		{"anchor Elo not a number", twoBots, Options{Anchor: "A", AnchorElo: math.NaN()}, ErrBadOption, "anchor Elo"},
		{"infinite advantage", twoBots, Options{Advantage: ptr(math.Inf(1))}, ErrBadOption, "advantage"},
		{"draw Elo 0 with draws", twoBots, Options{DrawElo: &zero}, ErrBadOption, "allows no draws"},
		{"all drawn", pairing(pairing(nil, "A", "B", 0, 5, 0), "B", "A", 0, 5, 0), Options{}, ErrNotFinite, "every game was drawn"},
		{"disconnected", pairing(pairing(twoBots, "C", "D", 2, 0, 1), "D", "C", 1, 0, 2), Options{}, ErrNotDetermined, "no games link A, B to C, D"},
		{"perfect score", pairing(pairing(nil, "A", "B", 5, 0, 0), "B", "A", 0, 0, 5), Options{}, ErrNotFinite, "A scored every point against B"},
		{"perfect score of two", pairing(pairing(pairing(pairing(twoBots, "A", "C", 2, 0, 0), "C", "B", 0, 0, 2), "C", "D", 1, 0, 1), "D", "C", 1, 1, 0),
			Options{}, ErrNotFinite, "A, B scored every point against C, D"},
		{"zero score", pairing(pairing(twoBots, "C", "A", 0, 0, 4), "B", "C", 3, 0, 0), Options{}, ErrNotFinite, "A, B scored every point against C"},
		{"first player scores everything", pairing(pairing(nil, "A", "B", 5, 0, 0), "B", "A", 5, 0, 0), Options{}, ErrNotFinite, "first-move advantage"},
		{"one colour order", pairing(nil, "A", "B", 3, 1, 2), Options{}, ErrNotDetermined, "singular"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Fit(tc.recs, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, tc.is) {
				t.Fatalf("Fit = %+v, %v; want an error with %q that is %v", rep, err, tc.wantErr, tc.is)
			}
			if !strings.HasPrefix(err.Error(), "ratings: ") {
				t.Errorf("error %q does not say it is from the ratings", err)
			}
		})
	}
}

// Every way of having no finite maximum is rated with a fallback prior,
// with finite estimates, a note, and the prior's games kept out of the
// counts.
func TestFallbackPriorMakesEverythingFinite(t *testing.T) {
	for _, tc := range []struct {
		name string
		recs []*record.Record
	}{
		{"two bots, one wins every game", pairing(pairing(nil, "mics", "random", 2, 0, 0), "random", "mics", 0, 0, 2)},
		{"with draws, one never loses", pairing(pairing(nil, "A", "B", 2, 3, 0), "B", "A", 0, 1, 1)},
		{"all drawn", pairing(pairing(nil, "A", "B", 0, 5, 0), "B", "A", 0, 5, 0)},
		{"first player wins every game", pairing(pairing(pairing(nil, "A", "B", 5, 0, 0), "B", "A", 5, 0, 0), "C", "A", 3, 0, 0)},
		{"second player wins every game", pairing(pairing(nil, "A", "B", 0, 0, 4), "B", "A", 0, 0, 4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Fit(tc.recs, Options{}); !errors.Is(err, ErrNotFinite) {
				t.Fatalf("pure fit: %v, want ErrNotFinite", err)
			}
			g := fitOne(t, tc.recs, Options{FallbackPrior: DefaultPrior})
			if g.Prior != DefaultPrior || len(g.Notes) == 0 || !strings.Contains(g.Notes[0], "prior of 2 virtual games") {
				t.Errorf("prior %v, notes %q", g.Prior, g.Notes)
			}
			var games, wins, losses int
			for _, b := range g.Bots {
				for _, v := range []float64{b.Elo, b.PlusMinus, b.OpponentsElo} {
					if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 2000 {
						t.Errorf("%s: %+v", b.Bot, b)
					}
				}
				games += b.Games
				wins += b.Wins
				losses += b.Losses
			}
			if games != 2*len(tc.recs) || wins != losses || wins != g.FirstWins+g.SecondWins {
				t.Errorf("counts: %d games, %d wins, %d losses of %d records", games, wins, losses, len(tc.recs))
			}
			for _, e := range []Estimate{g.Advantage, g.DrawElo} {
				if math.IsNaN(e.Elo) || math.IsInf(e.Elo, 0) || math.Abs(e.Elo) > 2000 {
					t.Errorf("parameter %+v", e)
				}
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }

// weakLosesAll is three bots' games where weak lost every game: the
// maximum-likelihood ratings are infinite.
func weakLosesAll() []*record.Record {
	var recs []*record.Record
	recs = pairing(recs, "strong", "weak", 10, 0, 0)
	recs = pairing(recs, "weak", "strong", 0, 0, 10)
	recs = pairing(recs, "strong", "mid", 6, 0, 4)
	recs = pairing(recs, "mid", "strong", 4, 0, 6)
	recs = pairing(recs, "mid", "weak", 10, 0, 0)
	return pairing(recs, "weak", "mid", 0, 0, 10)
}

// Where the maximum-likelihood ratings are infinite, a fallback prior of
// virtual games rates the games anyway and says so.
func TestFallbackPrior(t *testing.T) {
	recs := weakLosesAll()
	_, err := Fit(recs, Options{})
	if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "mid, strong scored every point against weak") {
		t.Fatalf("pure fit: %v", err)
	}
	g := fitOne(t, recs, Options{FallbackPrior: DefaultPrior})
	if g.Prior != DefaultPrior || len(g.Notes) == 0 || !strings.Contains(g.Notes[0], "weak") {
		t.Errorf("prior %v, notes %q", g.Prior, g.Notes)
	}
	s, m, w := botOf(t, g, "strong"), botOf(t, g, "mid"), botOf(t, g, "weak")
	if !(s.Elo > m.Elo && m.Elo > w.Elo) || s.Rank != 1 || w.Rank != 3 || math.IsInf(w.Elo, 0) {
		t.Errorf("ratings %+v", g.Bots)
	}
	if w.Wins != 0 || w.Losses != 40 || w.Draws != 0 || w.Score != 0 {
		t.Errorf("the prior's virtual games leaked into the counts: %+v", w)
	}
	// An explicit prior is used even where the ML ratings are finite.
	fin := pairing(pairing(nil, "A", "B", 6, 2, 2), "B", "A", 3, 2, 5)
	g0, g2 := fitOne(t, fin, Options{}), fitOne(t, fin, Options{Prior: 2})
	if g2.Prior != 2 || !(math.Abs(botOf(t, g2, "A").Elo) < math.Abs(botOf(t, g0, "A").Elo)) {
		t.Errorf("prior 2 did not pull the ratings together: %v vs %v", botOf(t, g2, "A").Elo, botOf(t, g0, "A").Elo)
	}
}

func TestFixedParameters(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	recs := simulate(rng, []string{"a", "b", "c"}, []float64{-50, 0, 50}, 40, 100, 200)
	g := fitOne(t, recs, Options{Advantage: ptr(0), DrawElo: ptr(150)})
	if !g.Advantage.Fixed || g.Advantage.Elo != 0 || !g.DrawElo.Fixed || g.DrawElo.Elo != 150 {
		t.Errorf("fixed parameters: %+v %+v", g.Advantage, g.DrawElo)
	}
	free := fitOne(t, recs, Options{})
	if free.LogLik < g.LogLik {
		t.Errorf("the free fit's log-likelihood %v is below the constrained one's %v", free.LogLik, g.LogLik)
	}
	// With every pairing played with one colour order only, the
	// advantage is confounded with the ratings unless it is fixed.
	one := pairing(pairing(nil, "A", "B", 5, 1, 3), "B", "C", 4, 2, 3)
	if _, err := Fit(one, Options{}); err == nil || !errors.Is(err, ErrNotDetermined) {
		t.Errorf("one colour order: %v", err)
	}
	g = fitOne(t, one, Options{Advantage: ptr(30)})
	if !g.Advantage.Fixed || g.Bots[0].Bot != "A" {
		t.Errorf("%+v", g)
	}
}

func TestReadNamesFileAndLine(t *testing.T) {
	good := `{"rules":"connect4","players":{"x":"a","o":"b"},"moves":[],"result":"X+","reason":"forfeit","forfeit":"timeout","winner":"a","start":"2026-11-22T10:00:00Z"}`
	ttt := func(moves, result, reason, winner string, round, game int) string {
		var ms []string
		for i, m := range strings.Fields(moves) {
			ms = append(ms, fmt.Sprintf(`{"move":%q,"color":%q,"ms":1}`, m, []string{"x", "o"}[i%2]))
		}
		w := "null"
		if winner != "" {
			w = fmt.Sprintf("%q", winner)
		}
		return fmt.Sprintf(`{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[%s],"result":%q,"reason":%q,"winner":%s,"round":%d,"game":%d,"schedule":"s"}`,
			strings.Join(ms, ","), result, reason, w, round, game)
	}
	for _, tc := range []struct {
		name, data, wantErr string
		wantRecs            int
	}{
		{"two records", good + "\n\n" + good + "\n", "", 2},
		{"no final newline", good + "\n" + good, "", 2},
		{"garbage", good + "\nhello\n" + good + "\n", "games.jsonl:2: decode game record", 0},
		{"torn last line", good + "\n" + good[:40], "games.jsonl:2: torn last line", 0},
		{"illegal move", good + "\n" + strings.Replace(good, `"moves":[]`, `"moves":[{"move":"9","color":"x","ms":0}]`, 1) + "\n", "games.jsonl:2: game record move 1", 0},
		{"bad result", strings.Replace(good, `"X+"`, `"1-0"`, 1) + "\n", `games.jsonl:1: game record: result "1-0"`, 0},
		{"no player", strings.Replace(good, `"x":"a"`, `"x":""`, 1) + "\n", "games.jsonl:1: game record: a player has no name", 0},
		{"unknown rules", strings.Replace(good, `connect4`, `chess`, 1) + "\n", "games.jsonl:1: game record", 0},
		// Issue 24: every record is judged, and a game counts once.
		{"real games", ttt("a1 a2 b1 b2 c1", "X+", "win", "a", 1, 1) + "\n" + ttt("a3 b3 c3 b2 a2 c2 b1 a1 c1", "0", "draw", "", 1, 2) + "\n", "", 2},
		{"forged win after 3 moves", good + "\n" + ttt("a1 b3 c2", "X+", "win", "a", 1, 1) + "\n", "games.jsonl:2: round 1 game 1: X+ by a win, but the 3 moves make no line of 3", 0},
		{"forged win after 1 move", ttt("b2", "X+", "win", "a", 1, 1) + "\n", "games.jsonl:1: round 1 game 1: X+ by a win, but the 1 move makes no line of 3", 0},
		{"open game", ttt("b2", "", "", "", 1, 1) + "\n", "games.jsonl:1: round 1 game 1 is not a finished game", 0},
		{"duplicate", ttt("a1 a2 b1 b2 c1", "X+", "win", "a", 1, 1) + "\n" + ttt("a1 a2 b1 b2 c1", "X+", "win", "a", 1, 1) + "\n", "games.jsonl:2: round 1 game 1 is already recorded on line 1", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := Read(strings.NewReader(tc.data), "games.jsonl", nil)
			if tc.wantErr == "" {
				if err != nil || len(recs) != tc.wantRecs {
					t.Fatalf("Read = %d records, %v; want %d", len(recs), err, tc.wantRecs)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Read = %d records, %v; want an error with %q", len(recs), err, tc.wantErr)
			}
		})
	}
}

// ReadSkipping (kinrow ratings --skip-invalid) keeps the valid records
// and lists every other line, and a torn last line, with file:line.
func TestReadSkipping(t *testing.T) {
	good := `{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"a1","color":"x","ms":0},{"move":"a2","color":"o","ms":0},{"move":"b1","color":"x","ms":0},{"move":"b2","color":"o","ms":0},{"move":"c1","color":"x","ms":0}],"result":"X+","reason":"win","winner":"a"}`
	forged := `{"rules":"mnk:3x3x3","players":{"x":"a","o":"b"},"moves":[{"move":"b2","color":"x","ms":0}],"result":"X+","reason":"win","winner":"a"}`
	data := good + "\n" + forged + "\nhello\n" + good + "\n" + good[:30]
	recs, bad, err := ReadSkipping(strings.NewReader(data), "g.jsonl", nil)
	if err != nil || len(recs) != 2 || len(bad) != 3 {
		t.Fatalf("ReadSkipping = %d records, bad %v, %v", len(recs), bad, err)
	}
	for i, want := range []string{"g.jsonl:2: game record: X+ by a win", "g.jsonl:3: decode game record", "g.jsonl:5: torn last line"} {
		if !strings.HasPrefix(bad[i].Error(), want) {
			t.Errorf("bad[%d] = %v, want %q", i, bad[i], want)
		}
	}
	if _, err := Read(strings.NewReader(data), "g.jsonl", nil); err == nil || !strings.HasPrefix(err.Error(), "g.jsonl:2: ") {
		t.Errorf("Read = %v", err)
	}
}

func TestWriteText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	recs := simulate(rng, []string{"alphabeta", "mics", "random"}, []float64{300, 100, -400}, 50, 60, 40)
	recs = games(recs, "mics", "random", "", 2)
	rep, err := Fit(recs, Options{Anchor: "random", FallbackPrior: DefaultPrior})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	t.Log("\n" + out)
	for _, want := range []string{"connectx:6x7x4: 120 games, 3 bots", "first-move advantage ", "anchor random = 0",
		"rank", "opp. Elo", "not rated: 2 open games\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// The table's rows are aligned: every line of the table is as wide.
	var widths []int
	for _, l := range strings.Split(out, "\n") {
		if strings.ContainsAny(l, "│|") {
			widths = append(widths, len([]rune(l)))
		}
	}
	if len(widths) < 4 {
		t.Fatalf("table lines: %v", widths)
	}
	for _, w := range widths {
		if w != widths[0] {
			t.Errorf("table lines of widths %v", widths)
			break
		}
	}
	// Rows follow the ranking.
	if a, m, r := strings.Index(out, "alphabeta"), strings.Index(out, "mics"), strings.LastIndex(out, "random"); !(a < m && m < r) {
		t.Errorf("rows out of order:\n%s", out)
	}
}

func TestWriteStandings(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	recs := simulate(rng, []string{"a", "b", "c"}, []float64{0, 100, 200}, 30, 80, 40)
	var buf bytes.Buffer
	if err := WriteStandings(&buf, recs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	t.Log("\n" + out)
	for _, want := range []string{"standings, connectx:6x7x4", "rank", "bot", "Elo", "±", "games", "score", "draws", "first-move advantage"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// Two bots: no standings.
	buf.Reset()
	if err := WriteStandings(&buf, simulate(rng, []string{"a", "b"}, []float64{0, 100}, 30, 80, 10)); err != nil || buf.Len() != 0 {
		t.Errorf("two bots: %q, %v", buf.String(), err)
	}
	// A bot that lost every game: the standings still come, with the prior.
	buf.Reset()
	recs = pairing(pairing(recs, "a", "zero", 4, 0, 0), "zero", "a", 0, 0, 4)
	if err := WriteStandings(&buf, recs); err != nil || !strings.Contains(buf.String(), "prior of 2 virtual games") {
		t.Errorf("with a bot at 0%%: %v\n%s", err, buf.String())
	}
	// Nothing to rate: an error, no output.
	buf.Reset()
	if err := WriteStandings(&buf, nil); err == nil || buf.Len() != 0 {
		t.Errorf("no games: %v, %q", err, buf.String())
	}
}

func nan() float64 { return math.NaN() }
