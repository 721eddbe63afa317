package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// fastchess's pentanomial counts are (LL, LD, WL, DD, WD, WW); a Penta
// holds WL and DD together.
func fromFastchess(ll, ld, wl, dd, wd, ww int) Penta { return Penta{ll, ld, wl + dd, wd, ww} }

// TestLLRReference checks the LLR against the values fastchess's own tests
// (app/tests/sprt_test.cpp) give for the same pairs and hypotheses, which
// match fishtest's LLR_logistic and LLR_normalized.
func TestLLRReference(t *testing.T) {
	tests := []struct {
		name       string
		p          Penta
		elo0, elo1 float64
		model      string
		want       float64
	}{
		{"normalized 1", fromFastchess(365, 16618, 36029, 200, 16974, 390), 0, 2, ModelNormalized, 2.25},
		{"normalized 2", fromFastchess(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, ModelNormalized, 3.01},
		{"normalized default", fromFastchess(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "", 3.01},
		{"logistic 1", fromFastchess(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, ModelLogistic, -3.07},
		{"logistic 2", fromFastchess(871, 26175, 55003, 980, 26678, 821), 0, 2, ModelLogistic, -4.98},
	}
	for _, tc := range tests {
		s := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.05, Model: tc.model}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		// fastchess checks to 1%.
		if got := s.LLR(tc.p); !near(got, tc.want, 0.01*math.Abs(tc.want)) {
			t.Errorf("%s: LLR %v, want %v", tc.name, got, tc.want)
		}
	}
}

func benchmarkLLR(b *testing.B, model string) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}
	// Pairs as a k-in-a-row match gives them: mostly one win each.
	ps := []Penta{{12, 40, 300, 45, 15}, {0, 3, 20, 4, 0}, {1, 0, 0, 0, 1}, {200, 800, 2000, 800, 200}}
	b.ReportAllocs()
	sum := 0.0
	for i := 0; b.Loop(); i++ {
		sum += s.LLR(ps[i%len(ps)])
	}
	if math.IsNaN(sum) {
		b.Fatal("NaN")
	}
}

func BenchmarkLLRNormalized(b *testing.B) { benchmarkLLR(b, ModelNormalized) }
func BenchmarkLLRLogistic(b *testing.B)   { benchmarkLLR(b, ModelLogistic) }

// TestOnePairNeverDecides reproduces issue 13: after one pair of random
// against random, the old LLR (a normal approximation whose zero variance
// was regularised with 1e-3) said "LLR 3.79: H1 accepted". While the pairs'
// variance is zero or undefined the LLR is 0 and the test goes on.
func TestOnePairNeverDecides(t *testing.T) {
	degenerate := []Penta{
		{}, {0, 0, 1, 0, 0}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}, {0, 1, 0, 0, 0},
		{0, 0, 2, 0, 0}, {0, 0, 0, 0, 30}, {0, 0, 0, 0, 5550}, {0, 0, 400, 0, 0},
	}
	for _, model := range []string{"", ModelNormalized, ModelLogistic} {
		for _, h := range [][2]float64{{0, 10}, {0, 5}, {-5, 5}, {0, 50}, {-3, 1}} {
			s := SPRT{Elo0: h[0], Elo1: h[1], Alpha: 0.05, Beta: 0.05, Model: model}
			for _, p := range degenerate {
				if llr, d := s.LLR(p), s.Decide(p); llr != 0 || d != Continue {
					t.Errorf("%+v, pairs %v: LLR %v, %v; want 0, continue", s, p, llr, d)
				}
			}
			// Nor would the GSPRT itself decide on one pair, guard or not.
			lo, hi := s.Bounds()
			for _, p := range degenerate[1:5] {
				if llr := s.gsprt(p); !(llr > lo/10 && llr < hi/10) {
					t.Errorf("%+v, one pair %v: GSPRT LLR %v, far from 0", s, p, llr)
				}
			}
		}
	}
}

func TestSPRTDecides(t *testing.T) {
	for _, model := range []string{ModelNormalized, ModelLogistic} {
		s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}
		lo, hi := s.Bounds()
		if !near(lo, -math.Log(19), 1e-12) || !near(hi, math.Log(19), 1e-12) {
			t.Errorf("bounds %v %v; want ±ln 19", lo, hi)
		}
		tests := []struct {
			name string
			p    Penta
			want Decision
		}{
			{"strong", Penta{0, 10, 60, 80, 150}, AcceptH1},
			{"equal", Penta{200, 800, 2000, 800, 200}, AcceptH0},
			{"few", Penta{0, 1, 2, 1, 0}, Continue},
			{"two different pairs", Penta{1, 0, 0, 0, 1}, Continue},
			{"weak", Penta{150, 80, 60, 10, 0}, AcceptH0},
		}
		for _, tc := range tests {
			llr := s.LLR(tc.p)
			if d := s.Decide(tc.p); d != tc.want || s.DecideLLR(llr) != d {
				t.Errorf("%s %s: LLR %v, %v; want %v", model, tc.name, llr, d, tc.want)
			}
		}
		// The LLR is antisymmetric: swapping the sides and the hypotheses'
		// signs swaps H0 and H1.
		mirror := SPRT{Elo0: -10, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: model}
		p := Penta{12, 40, 300, 45, 15}
		q := Penta{15, 45, 300, 40, 12}
		if a, b := s.LLR(p), mirror.LLR(q); !near(a, -b, 1e-9) {
			t.Errorf("%s: LLR %v, mirrored %v", model, a, b)
		}
	}
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	_, hi := s.Bounds()
	if f := s.Fraction(hi / 2); !near(f, 0.5, 1e-12) {
		t.Errorf("Fraction(upper/2) = %v", f)
	}
	if f := s.Fraction(-hi); !near(f, -1, 1e-12) {
		t.Errorf("Fraction(lower) = %v", f)
	}
}

func TestSPRTValidate(t *testing.T) {
	good := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	for _, m := range []string{"", ModelNormalized, ModelLogistic} {
		s := good
		s.Model = m
		if err := s.Validate(); err != nil {
			t.Errorf("model %q: %v", m, err)
		}
		if s.ModelName() == "" {
			t.Errorf("model %q: no name", m)
		}
	}
	tests := []struct {
		mod  func(*SPRT)
		want []string
	}{
		{func(s *SPRT) { s.Model = "bayesian" }, []string{`"bayesian"`, `"normalized"`, `"logistic"`}},
		{func(s *SPRT) { s.Model = "Logistic" }, []string{`"Logistic"`, `"normalized"`, `"logistic"`}},
		{func(s *SPRT) { s.Alpha = 0 }, []string{"alpha 0", "between 0 and 1"}},
		{func(s *SPRT) { s.Beta = 1 }, []string{"beta 1", "between 0 and 1"}},
		{func(s *SPRT) { s.Alpha, s.Beta = 0.6, 0.5 }, []string{"alpha 0.6 + beta 0.5", "less than 1"}},
		{func(s *SPRT) { s.Elo0, s.Elo1 = 10, 0 }, []string{"elo1 must be greater than elo0", "elo0=10, elo1=0"}},
		{func(s *SPRT) { s.Elo1 = 0 }, []string{"elo1 must be greater than elo0", "elo0=0, elo1=0"}},
		{func(s *SPRT) { s.Elo1 = math.Inf(1) }, []string{"elo1 +Inf"}},
		{func(s *SPRT) { s.Elo0 = math.NaN() }, []string{"elo0 NaN"}},
	}
	for _, tc := range tests {
		s := good
		tc.mod(&s)
		err := s.Validate()
		if err == nil {
			t.Errorf("%+v validated", s)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: %q does not say %s", s, err, w)
			}
		}
	}
}

// TestMLE checks the maximum-likelihood distributions the LLR compares: they
// are distributions, meet their constraint, and no nearby distribution that
// meets the constraint is more likely.
func TestMLE(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	loglik := func(phat, p *[5]float64) float64 {
		l := 0.0
		for i := range p {
			l += phat[i] * math.Log(p[i])
		}
		return l
	}
	for trial := range 2000 {
		var pen Penta
		for i := range pen {
			if rng.IntN(4) > 0 {
				pen[i] = rng.IntN(50)
			}
		}
		if pen.outcomes() < 2 {
			continue
		}
		phat, _ := pen.regularized()
		s := 0.3 + 0.4*rng.Float64()
		p, ok := mleMean(&phat, s)
		if !ok {
			t.Fatalf("%v s %v: no solution", pen, s)
		}
		mean, _ := distMeanVar(&p)
		sum := p[0] + p[1] + p[2] + p[3] + p[4]
		if !near(sum, 1, 1e-9) || !near(mean, s, 1e-9) {
			t.Fatalf("%v s %v: p %v sums to %v, mean %v", pen, s, p, sum, mean)
		}
		// Directions that keep the sum and the mean: second differences.
		best := loglik(&phat, &p)
		for k := 0; k+2 < 5; k++ {
			for _, eps := range []float64{1e-4, -1e-4} {
				q := p
				q[k] += eps
				q[k+1] -= 2 * eps
				q[k+2] += eps
				if q[k] > 0 && q[k+1] > 0 && q[k+2] > 0 && loglik(&phat, &q) > best+1e-12 {
					t.Errorf("trial %d %v s %v: %v is more likely than the MLE %v", trial, pen, s, q, p)
				}
			}
		}
		tv := -0.6 + 1.2*rng.Float64()
		pt, ok := mleT(&phat, tv)
		if !ok {
			t.Fatalf("%v t %v: no solution", pen, tv)
		}
		mean, variance := distMeanVar(&pt)
		sum = pt[0] + pt[1] + pt[2] + pt[3] + pt[4]
		if !near(sum, 1, 1e-9) || !near((mean-0.5)/math.Sqrt(variance), tv, 1e-6) {
			t.Errorf("%v t %v: p %v sums to %v, t %v", pen, tv, pt, sum, (mean-0.5)/math.Sqrt(variance))
		}
	}
}

// TestLLRFinite: for any pairs with two different scores and any valid
// hypotheses the LLR is a finite number, and more pairs of the same mix give
// proportionally more evidence.
func TestLLRFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 3000 {
		var p Penta
		for i := range p {
			if rng.IntN(3) > 0 {
				p[i] = rng.IntN(60)
			}
		}
		if p.outcomes() < 2 {
			continue
		}
		e0 := -400 + 800*rng.Float64()
		e1 := e0 + 1 + 300*rng.Float64()
		for _, model := range []string{ModelNormalized, ModelLogistic} {
			s := SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05, Model: model}
			llr := s.gsprt(p)
			if math.IsNaN(llr) || math.IsInf(llr, 0) {
				t.Fatalf("trial %d: %+v, pairs %v: LLR %v", trial, s, p, llr)
			}
		}
	}
	for _, model := range []string{ModelNormalized, ModelLogistic} {
		s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}
		p := Penta{10, 40, 100, 50, 20}
		var p10 Penta
		for i := range p {
			p10[i] = 10 * p[i]
		}
		if a, b := s.LLR(p), s.LLR(p10); !near(b, 10*a, 1e-6*math.Abs(b)) {
			t.Errorf("%s: LLR %v for %v, %v for ten times as many", model, a, p, b)
		}
	}
}
