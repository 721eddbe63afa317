package stats

import (
	"fmt"
	"math"
)

// WDL counts wins, draws and losses from one side's view.
type WDL struct {
	W, D, L int
}

// N is the number of games.
func (w WDL) N() int { return w.W + w.D + w.L }

// Score is the mean score per game (win 1, draw ½, loss 0), or 0.5 with no games.
func (w WDL) Score() float64 {
	if w.N() == 0 {
		return 0.5
	}
	return (float64(w.W) + 0.5*float64(w.D)) / float64(w.N())
}

// EloFromScore converts a mean score to an Elo difference under the
// logistic model: 400·log10(s/(1−s)). Scores of 0 and 1 give ∓Inf.
func EloFromScore(s float64) float64 {
	if s <= 0 {
		return math.Inf(-1)
	}
	if s >= 1 {
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the inverse of EloFromScore.
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Estimate is an Elo difference with its 95% confidence interval.
type Estimate struct {
	Elo, Low, High float64
}

// String prints e.g. "+35.2 ± 20.1" (the half-width of the interval).
func (e Estimate) String() string {
	if math.IsInf(e.Elo, 0) || math.IsNaN(e.Elo) {
		return fmt.Sprintf("%+.0f", e.Elo)
	}
	if math.IsInf(e.Low, 0) || math.IsInf(e.High, 0) {
		return fmt.Sprintf("%+.1f [%+.0f, %+.0f]", e.Elo, e.Low, e.High)
	}
	return fmt.Sprintf("%+.1f ± %.1f", e.Elo, (e.High-e.Low)/2)
}

// z975 is the 97.5% quantile of the standard normal distribution.
const z975 = 1.959963984540054

// Elo estimates the Elo difference from W/D/L with the trinomial model: the
// per-game score's standard deviation gives the interval of the mean score,
// mapped to Elo (as cutechess-cli reports it).
func (w WDL) Elo() Estimate {
	n := float64(w.N())
	s := w.Score()
	if n == 0 {
		return Estimate{}
	}
	variance := (float64(w.W)*math.Pow(1-s, 2) + float64(w.D)*math.Pow(0.5-s, 2) + float64(w.L)*math.Pow(s, 2)) / n
	half := z975 * math.Sqrt(variance/n)
	return Estimate{Elo: EloFromScore(s), Low: EloFromScore(s - half), High: EloFromScore(s + half)}
}

// LOS is the likelihood of superiority: the probability that the side is
// stronger, from wins and losses (draws carry no information).
func (w WDL) LOS() float64 {
	if w.W+w.L == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(w.W-w.L)/math.Sqrt(2*float64(w.W+w.L))))
}

// Penta counts game pairs by their total score for one side: index k is the
// number of pairs scoring k/2 (0: lost both, 4: won both).
type Penta [5]int

// Add counts a pair from the two game scores (each 0, 0.5 or 1).
func (p *Penta) Add(a, b float64) {
	k := int(math.Round(2 * (a + b)))
	if k >= 0 && k <= 4 {
		p[k]++
	}
}

// Pairs is the number of pairs.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// meanVar returns the mean and variance of the per-pair score (0..1).
func (p Penta) meanVar() (mean, variance float64) { return p.meanVarReg(0) }

// meanVarReg is meanVar with eps added to every count, so that a run of
// identical pairs does not have a zero variance (fishtest regularises the
// same way).
func (p Penta) meanVarReg(eps float64) (mean, variance float64) {
	n := float64(p.Pairs()) + 5*eps
	if n == 0 {
		return 0.5, 0
	}
	for k, c := range p {
		mean += (float64(c) + eps) * float64(k) / 4
	}
	mean /= n
	for k, c := range p {
		d := float64(k)/4 - mean
		variance += (float64(c) + eps) * d * d
	}
	return mean, variance / n
}

// Elo estimates the Elo difference and its 95% interval from the pairs.
func (p Penta) Elo() Estimate {
	n := float64(p.Pairs())
	if n == 0 {
		return Estimate{}
	}
	mean, variance := p.meanVar()
	half := z975 * math.Sqrt(variance/n)
	return Estimate{Elo: EloFromScore(mean), Low: EloFromScore(mean - half), High: EloFromScore(mean + half)}
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1 (logistic Elo) with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
	Model                   string // TEMP (h-match): "normalized" or "logistic"; the stats branch defines it
}

// Bounds returns the log-likelihood-ratio bounds: accept H0 at or below
// lower, H1 at or above upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Validate checks the parameters.
func (s SPRT) Validate() error {
	if !(s.Alpha > 0 && s.Alpha < 1 && s.Beta > 0 && s.Beta < 1) {
		return fmt.Errorf("sprt: alpha and beta must be between 0 and 1 (got %g, %g)", s.Alpha, s.Beta)
	}
	if !(s.Elo1 > s.Elo0) {
		return fmt.Errorf("sprt: elo1 must be greater than elo0 (got %g, %g)", s.Elo0, s.Elo1)
	}
	return nil
}

// LLR is the log-likelihood ratio of the pentanomial results under the
// normal approximation used by fastchess and fishtest:
// (s1−s0)·(2·mean − s0 − s1)·n / (2·var), with s0, s1 the expected pair
// scores under H0 and H1.
func (s SPRT) LLR(p Penta) float64 {
	n := float64(p.Pairs())
	if n == 0 {
		return 0
	}
	mean, variance := p.meanVarReg(1e-3)
	s0, s1 := ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1)
	return (s1 - s0) * (2*mean - s0 - s1) * n / (2 * variance)
}

// Decision is the state of an SPRT.
type Decision int

// SPRT decisions.
const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

// String names the decision: "continue", "H0 accepted", "H1 accepted".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Decide returns the test's decision for the pairs so far.
func (s SPRT) Decide(p Penta) Decision {
	llr := s.LLR(p)
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
