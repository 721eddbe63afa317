package stats

import (
	"math"
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

func TestSPRT(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	if !near(lo, -2.944, 1e-3) || !near(hi, 2.944, 1e-3) {
		t.Errorf("bounds %v %v; want ±ln(19) = ±2.944", lo, hi)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []SPRT{{Elo0: 0, Elo1: 10, Alpha: 0, Beta: 0.05}, {Elo0: 10, Elo1: 0, Alpha: 0.05, Beta: 0.05}, {Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
	// A strong side: 300 pairs, mostly 2-0 → H1.
	strong := Penta{0, 10, 60, 80, 150}
	if d := s.Decide(strong); d != AcceptH1 {
		t.Errorf("strong: LLR %v, decision %v", s.LLR(strong), d)
	}
	// Equal sides, many pairs → H0 (elo 0 is nearer H0).
	equal := Penta{200, 800, 2000, 800, 200}
	if d := s.Decide(equal); d != AcceptH0 {
		t.Errorf("equal: LLR %v, decision %v", s.LLR(equal), d)
	}
	allWins := Penta{0, 0, 0, 0, 30} // zero variance: regularised
	if d := s.Decide(allWins); d != AcceptH1 {
		t.Errorf("all wins: LLR %v, decision %v", s.LLR(allWins), d)
	}
	few := Penta{0, 1, 2, 1, 0}
	if d := s.Decide(few); d != Continue {
		t.Errorf("few: LLR %v, decision %v", s.LLR(few), d)
	}
	// LLR by hand for equal: mean .5, s0=.5, s1=ScoreFromElo(10)=.514387; var = (200·.25+800·.0625+0+800·.0625+200·.25)/4000 = .05
	want := (ScoreFromElo(10) - 0.5) * (1 - 0.5 - ScoreFromElo(10)) * 4000 / (2 * 0.05)
	if got := s.LLR(equal); !near(got, want, 1e-3) || !near(got, -8.28, 0.01) {
		t.Errorf("LLR(equal) = %v, want %v", got, want)
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
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}
