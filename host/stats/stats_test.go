package stats

import (
	"math"
	"strings"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestEloFromScore(t *testing.T) {
	tests := []struct{ score, elo float64 }{
		{0.5, 0}, {0.75, 190.848}, {0.25, -190.848}, {0.64, 99.95}, {0.9, 381.697},
	}
	for _, tc := range tests {
		if got := EloFromScore(tc.score); !near(got, tc.elo, 0.01) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.score, got, tc.elo)
		}
		if got := ScoreFromElo(tc.elo); !near(got, tc.score, 1e-4) {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tc.elo, got, tc.score)
		}
	}
}

// Known values computed by hand from the trinomial formulas:
// 60 W, 20 D, 20 L: score 0.7, per-game sd sqrt((60·.09+20·.04+20·.49)/100)=0.4,
// half-width 1.96·0.4/10 = 0.0784; Elo(0.7)=147.19, Elo(0.6216)=86.22, Elo(0.7784)=218.26.
func TestWDLElo(t *testing.T) {
	e := WDL{W: 60, D: 20, L: 20}.Elo()
	if !near(e.Elo, 147.19, 0.05) || !near(e.Low, 86.22, 0.05) || !near(e.High, 218.26, 0.05) {
		t.Errorf("Elo = %+v", e)
	}
	if s := (WDL{}).Elo(); s.Elo != 0 {
		t.Errorf("no games: %+v", s)
	}
	if e := (WDL{W: 10}).Elo(); !math.IsInf(e.Elo, 1) {
		t.Errorf("all wins: %+v", e)
	}
}

func TestLOS(t *testing.T) {
	tests := []struct {
		w    WDL
		want float64
	}{
		{WDL{W: 10, L: 10}, 0.5},
		{WDL{W: 60, D: 20, L: 20}, 0.99999}, // (60-20)/sqrt(160)=3.16 sd
		{WDL{W: 12, L: 8, D: 100}, 0.8145},  // 4/sqrt(40)=0.632 → Φ(0.894)
		{WDL{D: 5}, 0.5},
	}
	for _, tc := range tests {
		if got := tc.w.LOS(); !near(got, tc.want, 1e-3) {
			t.Errorf("LOS(%+v) = %v, want %v", tc.w, got, tc.want)
		}
	}
}

func TestPenta(t *testing.T) {
	var p Penta
	p.Add(1, 1)     // 2 points: k=4
	p.Add(1, 0)     // k=2
	p.Add(0.5, 0.5) // k=2
	p.Add(0, 0.5)   // k=1
	if p != (Penta{0, 1, 2, 0, 1}) || p.Pairs() != 4 {
		t.Errorf("penta = %v", p)
	}
	mean, v := p.meanVar()
	// pair scores 1, .5, .5, .25: mean .5625, var ((.4375²)+2(.0625²)+(.3125²))/4
	if !near(mean, 0.5625, 1e-9) || !near(v, (0.19140625+2*0.00390625+0.09765625)/4, 1e-9) {
		t.Errorf("mean %v var %v", mean, v)
	}
}

func TestEstimateString(t *testing.T) {
	for _, tc := range []struct {
		e    Estimate
		want string
	}{
		{Estimate{35.2, 15.1, 55.3}, "+35.2 ± 20.1"},
		{Estimate{-190.8, math.Inf(-1), 71.3}, "-190.8 [-Inf, +71]"},
		{Estimate{math.Inf(1), 0, 0}, "+Inf"},
		{Estimate{math.Inf(-1), 0, 0}, "-Inf"},
		{Estimate{-0.04, -20.3, 20.2}, "+0.0 ± 20.2"},
		{Estimate{math.Copysign(0, -1), -1, 1}, "+0.0 ± 1.0"},
		{Estimate{-0.04, math.Inf(-1), -0.2}, "+0.0 [-Inf, +0]"},
		{Estimate{-0.05, -10, 10}, "-0.1 ± 10.0"},
		{Estimate{0.04, -10, 10}, "+0.0 ± 10.0"},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestSignedEloNeverMinusZero(t *testing.T) {
	for _, tc := range []struct {
		elo  float64
		prec int
		want string
	}{
		{-0.04, 1, "+0.0"},
		{-0.049, 1, "+0.0"},
		{math.Copysign(0, -1), 1, "+0.0"},
		{-0.4, 0, "+0"},
		{-1e-300, 2, "+0.00"},
		{-0.06, 1, "-0.1"},
		{-0.6, 0, "-1"},
		{12.34, 1, "+12.3"},
		{-12.34, 1, "-12.3"},
		{0, 1, "+0.0"},
		{math.Inf(1), 0, "+Inf"},
		{math.Inf(-1), 1, "-Inf"},
		{math.NaN(), 1, "NaN"},
	} {
		if got := SignedElo(tc.elo, tc.prec); got != tc.want {
			t.Errorf("SignedElo(%v, %d) = %q, want %q", tc.elo, tc.prec, got, tc.want)
		}
	}
	// Every Estimate whose Elo rounds to zero prints without a minus sign,
	// whatever side of zero it lies on.
	for i := -50; i <= 50; i++ {
		e := Estimate{Elo: float64(i) / 1000, Low: float64(i)/1000 - 5, High: float64(i)/1000 + 5}
		if s := e.String(); strings.HasPrefix(s, "-0.0") {
			t.Errorf("%+v prints %q", e, s)
		}
	}
}

// 60 W, 20 D, 20 L: s = 0.7, σ = 0.4, t = 0.5, nElo = 0.5·800/ln 10 = 173.72.
// Central moments: m3 = .2·(−.7)³+.2·(−.2)³+.6·(.3)³ = −.054, skewness
// −.054/.4³ = −.84375; m4 = .0532, kurtosis .0532/.4⁴ = 2.078125. Variance of
// t: 1 + .84375·.5 + 1.078125·.25/4 = 1.48926, half-width
// 1.96·√(1.48926/100) = .239184 → nElo 347.4356·(.5 ± .239184).
func TestNElo(t *testing.T) {
	e := WDL{W: 60, D: 20, L: 20}.NElo()
	if !near(e.Elo, 173.718, 0.01) || !near(e.Low, 90.617, 0.01) || !near(e.High, 256.819, 0.01) {
		t.Errorf("WDL nElo %+v", e)
	}
	// Pairs 5-10-50-20-15: mean .575, variance .063125 per pair; a game's σ
	// is √(2·.063125) = .35532, nElo .075/.35532·347.4356 = 73.34.
	p := Penta{5, 10, 50, 20, 15}
	if e := p.NElo(); !near(e.Elo, 73.336, 0.01) || !(e.Low < e.Elo && e.Elo < e.High) {
		t.Errorf("penta nElo %+v", e)
	}
	// Symmetric results: nElo 0 and a symmetric interval.
	if e := (Penta{10, 20, 40, 20, 10}).NElo(); !near(e.Elo, 0, 1e-9) || !near(e.Low, -e.High, 1e-9) {
		t.Errorf("symmetric nElo %+v", e)
	}
	for _, e := range []Estimate{(WDL{}).NElo(), (WDL{D: 7}).NElo(), (WDL{W: 3}).NElo(), (Penta{}).NElo(), (Penta{0, 0, 9, 0, 0}).NElo()} {
		if !math.IsNaN(e.Elo) || e.String() != "n/a" {
			t.Errorf("undefined nElo %+v %q", e, e.String())
		}
	}
}

func TestRatiosAndPentaLOS(t *testing.T) {
	if r := (WDL{W: 3, D: 5, L: 2}).DrawRatio(); !near(r, 0.5, 1e-12) {
		t.Errorf("WDL draw ratio %v", r)
	}
	if r := (WDL{}).DrawRatio(); r != 0 {
		t.Errorf("no games: draw ratio %v", r)
	}
	p := Penta{5, 10, 50, 20, 15}
	if r := p.DrawRatio(); !near(r, 0.5, 1e-12) {
		t.Errorf("penta draw ratio %v", r)
	}
	if r := p.PairsRatio(); !near(r, 35.0/15, 1e-12) {
		t.Errorf("pairs ratio %v", r)
	}
	if r := (Penta{0, 0, 3, 1, 0}).PairsRatio(); !math.IsInf(r, 1) {
		t.Errorf("none lost: pairs ratio %v", r)
	}
	if r := (Penta{0, 0, 3, 0, 0}).PairsRatio(); !math.IsNaN(r) {
		t.Errorf("none won or lost: pairs ratio %v", r)
	}
	if s := p.Score(); !near(s, 0.575, 1e-12) {
		t.Errorf("penta score %v", s)
	}
	// Φ(.075/√(.063125/100)) = Φ(2.985) = .99858.
	tests := []struct {
		p    Penta
		want float64
	}{
		{p, 0.99858}, {Penta{15, 20, 50, 10, 5}, 1 - 0.99858}, {Penta{10, 20, 40, 20, 10}, 0.5},
		{Penta{}, 0.5}, {Penta{0, 0, 0, 0, 3}, 1}, {Penta{2, 0, 0, 0, 0}, 0}, {Penta{0, 0, 4, 0, 0}, 0.5},
	}
	for _, tc := range tests {
		if got := tc.p.LOS(); !near(got, tc.want, 1e-5) {
			t.Errorf("LOS(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}
