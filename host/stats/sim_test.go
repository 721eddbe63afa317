package stats

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// These tests check the SPRT's error rates and the Elo intervals' coverage
// by simulation: many matches drawn from distributions of known Elo, with a
// fixed seed, so that they are deterministic.

// tiltPenta is base exponentially tilted by λ: p_k ∝ base_k·e^{λk/4}.
func tiltPenta(base [5]float64, lambda float64) [5]float64 {
	var p [5]float64
	sum := 0.0
	for k := range p {
		p[k] = base[k] * math.Exp(lambda*pairScore(k))
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
	return p
}

// logisticElo is the true logistic Elo of a pentanomial distribution.
func logisticElo(p [5]float64) float64 {
	mean, _ := distMeanVar(&p)
	return EloFromScore(mean)
}

// normalizedElo is the true normalized Elo of a pentanomial distribution:
// (μ−½)/σ_game·800/ln 10 with σ_game = √2·σ_pair.
func normalizedElo(p [5]float64) float64 {
	mean, variance := distMeanVar(&p)
	return (mean - 0.5) / math.Sqrt(2*variance) * nEloPerT
}

// pentaWithElo tilts base until its true Elo under eloOf is want.
func pentaWithElo(t *testing.T, base [5]float64, eloOf func([5]float64) float64, want float64) [5]float64 {
	t.Helper()
	lo, hi := -10.0, 10.0
	for range 200 {
		mid := (lo + hi) / 2
		if eloOf(tiltPenta(base, mid)) < want {
			lo = mid
		} else {
			hi = mid
		}
	}
	p := tiltPenta(base, (lo+hi)/2)
	if got := eloOf(p); math.Abs(got-want) > 1e-9 {
		t.Fatalf("could not build a distribution of Elo %v from %v: got %v", want, base, got)
	}
	return p
}

// sampler draws outcomes 0..len-1 with the given probabilities.
type sampler struct {
	cum [5]float64
	n   int
}

func newSampler(p []float64) sampler {
	s := sampler{n: len(p)}
	acc := 0.0
	for i, q := range p {
		acc += q
		s.cum[i] = acc
	}
	s.cum[len(p)-1] = 1
	return s
}

func (s *sampler) draw(rng *rand.Rand) int {
	u := rng.Float64()
	for i := 0; i < s.n-1; i++ {
		if u < s.cum[i] {
			return i
		}
	}
	return s.n - 1
}

// runSPRT plays pairs drawn from dist until the test decides or maxPairs
// pairs were played (undecided: Continue).
func runSPRT(s SPRT, dist *sampler, rng *rand.Rand, maxPairs int) (Decision, int) {
	var p Penta
	for n := 1; n <= maxPairs; n++ {
		p[dist.draw(rng)]++
		if d := s.Decide(p); d != Continue {
			return d, n
		}
	}
	return Continue, maxPairs
}

// TestSPRTErrorRates simulates 2,000 SPRTs at elo = elo0 and 2,000 at
// elo = elo1 for each Elo model, pairs drawn from a pentanomial distribution
// whose true Elo in that model is elo0 or elo1, and checks that H1 is
// accepted at elo0 in at most alpha of them and H0 at elo1 in at most beta,
// give or take three standard errors of a binomial proportion.
func TestSPRTErrorRates(t *testing.T) {
	const runs = 2000
	const maxPairs = 20000
	tests := []struct {
		name string
		sprt SPRT
		base [5]float64 // the shape of the pair outcomes, tilted to each Elo
		elo  func([5]float64) float64
	}{
		{"logistic", SPRT{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.05, Model: ModelLogistic},
			[5]float64{0.06, 0.14, 0.6, 0.14, 0.06}, logisticElo},
		{"normalized", SPRT{Elo0: -10, Elo1: 40, Alpha: 0.05, Beta: 0.1, Model: ModelNormalized},
			[5]float64{0.05, 0.2, 0.5, 0.2, 0.05}, normalizedElo},
	}
	for ti, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := tc.sprt.Validate(); err != nil {
				t.Fatal(err)
			}
			for hi, h := range []struct {
				elo   float64
				wrong Decision
				rate  float64
			}{
				{tc.sprt.Elo0, AcceptH1, tc.sprt.Alpha},
				{tc.sprt.Elo1, AcceptH0, tc.sprt.Beta},
			} {
				dist := pentaWithElo(t, tc.base, tc.elo, h.elo)
				smp := newSampler(dist[:])
				rng := rand.New(rand.NewPCG(uint64(ti), uint64(hi)))
				wrong, undecided, pairs := 0, 0, 0
				for range runs {
					d, n := runSPRT(tc.sprt, &smp, rng, maxPairs)
					pairs += n
					switch d {
					case h.wrong:
						wrong++
					case Continue:
						undecided++
					}
				}
				got := float64(wrong) / runs
				margin := 3 * math.Sqrt(h.rate*(1-h.rate)/runs)
				mean := float64(pairs) / runs
				t.Logf("elo %v (%v): wrong %s in %d of %d runs (%.4f, allowed %.4f+%.4f), %d undecided, mean %.1f pairs",
					h.elo, dist, h.wrong, wrong, runs, got, h.rate, margin, undecided, mean)
				if got > h.rate+margin {
					t.Errorf("elo %v: %s in %.4f of the runs; allowed %.4f + %.4f", h.elo, h.wrong, got, h.rate, margin)
				}
				if undecided > runs/100 || math.IsInf(mean, 0) || mean >= maxPairs {
					t.Errorf("elo %v: %d of %d runs undecided after %d pairs, mean %.1f pairs", h.elo, undecided, runs, maxPairs, mean)
				}
			}
		})
	}
}

// coverage counts how often est contains truth over matches drawn by play.
func coverage(matches int, truth float64, play func() Estimate) float64 {
	in := 0
	for range matches {
		if e := play(); e.Low <= truth && truth <= e.High {
			in++
		}
	}
	return float64(in) / float64(matches)
}

// TestEloIntervalCoverage checks that the 95% intervals contain the true
// Elo in 95% of simulated matches, give or take three standard errors.
func TestEloIntervalCoverage(t *testing.T) {
	const matches = 3000
	margin := 3 * math.Sqrt(0.95*0.05/matches)
	rng := rand.New(rand.NewPCG(7, 7))
	check := func(name string, got float64) {
		t.Helper()
		t.Logf("%s: %.4f of %d intervals hold the true Elo", name, got, matches)
		if math.Abs(got-0.95) > margin {
			t.Errorf("%s: coverage %.4f, want 0.95 ± %.4f", name, got, margin)
		}
	}
	// W/D/L: independent games with a win, draw and loss probability.
	for _, tc := range []struct {
		elo, draws float64
		games      int
	}{{0, 0.3, 200}, {100, 0.5, 400}, {-60, 0.1, 100}, {250, 0.2, 1000}} {
		s := ScoreFromElo(tc.elo)
		pw := s - tc.draws/2
		smp := newSampler([]float64{1 - pw - tc.draws, tc.draws, pw}) // loss, draw, win
		game := func() WDL {
			var w WDL
			for range tc.games {
				switch smp.draw(rng) {
				case 0:
					w.L++
				case 1:
					w.D++
				default:
					w.W++
				}
			}
			return w
		}
		name := func(what string) string {
			return what + "(elo " + ftoa(tc.elo) + ", draws " + ftoa(tc.draws) + ", games " + itoa(tc.games) + ")"
		}
		check(name("WDL.Elo"), coverage(matches, tc.elo, func() Estimate { return game().Elo() }))
		variance := pw*(1-s)*(1-s) + tc.draws*(0.5-s)*(0.5-s) + (1-pw-tc.draws)*s*s
		nelo := (s - 0.5) / math.Sqrt(variance) * nEloPerT
		check(name("WDL.NElo"), coverage(matches, nelo, func() Estimate { return game().NElo() }))
	}
	// Pairs.
	for _, tc := range []struct {
		base  [5]float64
		elo   float64
		pairs int
	}{
		{[5]float64{0.06, 0.14, 0.6, 0.14, 0.06}, 0, 100},
		{[5]float64{0.05, 0.2, 0.5, 0.2, 0.05}, 40, 300},
		{[5]float64{0.01, 0.04, 0.9, 0.04, 0.01}, -30, 500},
	} {
		dist := pentaWithElo(t, tc.base, logisticElo, tc.elo)
		smp := newSampler(dist[:])
		match := func() Penta {
			var p Penta
			for range tc.pairs {
				p[smp.draw(rng)]++
			}
			return p
		}
		name := func(what string) string {
			return what + "(elo " + ftoa(tc.elo) + ", pairs " + itoa(tc.pairs) + ")"
		}
		check(name("Penta.Elo"), coverage(matches, tc.elo, func() Estimate { return match().Elo() }))
		check(name("Penta.NElo"), coverage(matches, normalizedElo(dist), func() Estimate { return match().NElo() }))
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
func itoa(i int) string     { return strconv.Itoa(i) }
