package stats

import (
	"math"
	"strconv"
	"strings"
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

// String prints e.g. "+35.2 ± 20.1" (the half-width of the interval), or
// "n/a" when the estimate is undefined (NaN). An Elo that rounds to zero
// prints "+0.0", never "-0.0".
func (e Estimate) String() string {
	if math.IsNaN(e.Elo) {
		return "n/a"
	}
	if math.IsInf(e.Elo, 0) {
		return SignedElo(e.Elo, 0)
	}
	if math.IsInf(e.Low, 0) || math.IsInf(e.High, 0) {
		return SignedElo(e.Elo, 1) + " [" + SignedElo(e.Low, 0) + ", " + SignedElo(e.High, 0) + "]"
	}
	return SignedElo(e.Elo, 1) + " ± " + strconv.FormatFloat((e.High-e.Low)/2, 'f', 1, 64)
}

// SignedElo prints an Elo difference with its sign and prec decimals, as
// "%+.*f" does, except that a value that rounds to zero prints "+0.0" (or
// "+0"), never "-0.0": a difference too small to show has no side. ±Inf
// prints "+Inf" and "-Inf", NaN "NaN".
func SignedElo(elo float64, prec int) string {
	s := strconv.FormatFloat(elo, 'f', prec, 64) // "+Inf", "-Inf", "NaN" as they are
	switch {
	case math.IsInf(elo, 0) || math.IsNaN(elo):
		return s
	case strings.HasPrefix(s, "-"):
		if strings.Trim(s[1:], "0.") == "" {
			return "+" + s[1:]
		}
		return s
	default:
		return "+" + s
	}
}

// Z975 is the 97.5% quantile of the standard normal distribution: the
// half-width of a 95% interval in standard deviations.
const Z975 = 1.959963984540054

// Elo estimates the Elo difference from W/D/L with the trinomial model: the
// per-game score's standard deviation gives the interval of the mean score,
// mapped to Elo (as cutechess-cli reports it).
func (w WDL) Elo() Estimate {
	n := float64(w.N())
	s := w.Score()
	if n == 0 {
		return Estimate{}
	}
	half := Z975 * math.Sqrt(w.variance()/n)
	return Estimate{Elo: EloFromScore(s), Low: EloFromScore(s - half), High: EloFromScore(s + half)}
}

// DrawRatio is the fraction of games drawn, 0 with no games.
func (w WDL) DrawRatio() float64 {
	if w.N() == 0 {
		return 0
	}
	return float64(w.D) / float64(w.N())
}

// NElo is the normalized Elo difference (nElo) and its 95% interval from
// W/D/L: t·800/ln 10 with t = (s−½)/σ, s the mean score and σ its per-game
// standard deviation. Undefined (NaN) with no games or while every game had
// the same result. See nElo for the interval.
func (w WDL) NElo() Estimate {
	return nElo([]float64{0, 0.5, 1}, []int{w.L, w.D, w.W}, nEloPerT)
}

// variance is the per-game variance of the score.
func (w WDL) variance() float64 {
	n := float64(w.N())
	if n == 0 {
		return 0
	}
	s := w.Score()
	return (float64(w.W)*(1-s)*(1-s) + float64(w.D)*(0.5-s)*(0.5-s) + float64(w.L)*s*s) / n
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

// meanVar returns the mean and variance of the per-pair score (0..1): those
// of the pairs' observed distribution (distMeanVar).
func (p Penta) meanVar() (mean, variance float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return 0.5, 0
	}
	var freq [5]float64
	for k, c := range p {
		freq[k] = float64(c) / n
	}
	return distMeanVar(&freq)
}

// Elo estimates the Elo difference and its 95% interval from the pairs.
func (p Penta) Elo() Estimate {
	n := float64(p.Pairs())
	if n == 0 {
		return Estimate{}
	}
	mean, variance := p.meanVar()
	half := Z975 * math.Sqrt(variance/n)
	return Estimate{Elo: EloFromScore(mean), Low: EloFromScore(mean - half), High: EloFromScore(mean + half)}
}

// Score is the mean score per game over the pairs (the mean pair score), or
// 0.5 with no pairs.
func (p Penta) Score() float64 {
	mean, _ := p.meanVar()
	return mean
}

// NElo is the normalized Elo difference (nElo) from the pairs and its 95%
// interval: t·800/ln 10/√2 with t = (s−½)/σ, s the mean pair score and σ its
// standard deviation (a game's σ is √2 times a pair's, as two games make a
// pair). Undefined (NaN) with no pairs or while every pair scored the same.
// See nElo for the interval.
func (p Penta) NElo() Estimate {
	return nElo([]float64{0, 0.25, 0.5, 0.75, 1}, p[:], nEloPerT/math.Sqrt2)
}

// nElo estimates coeff·t, t = (μ−½)/σ the t-value of the outcomes of the
// given values seen counts times each, with its 95% interval. The estimate
// of t has variance (1 − γ·t + (κ−1)·t²/4)/n, γ and κ the skewness and
// kurtosis (the delta method, as fishtest's test pages compute nElo's
// interval): fastchess's ±1.96·coeff/√n, which takes σ as known, is the
// same at t = 0 but misses the true nElo far more often than 5% of the time
// once |t| is large.
func nElo(values []float64, counts []int, coeff float64) Estimate {
	undefined := Estimate{math.NaN(), math.NaN(), math.NaN()}
	n := 0.0
	mean := 0.0
	for i, c := range counts {
		n += float64(c)
		mean += float64(c) * values[i]
	}
	if n == 0 {
		return undefined
	}
	mean /= n
	var m2, m3, m4 float64
	for i, c := range counts {
		d := values[i] - mean
		m2 += float64(c) * d * d
		m3 += float64(c) * d * d * d
		m4 += float64(c) * d * d * d * d
	}
	m2, m3, m4 = m2/n, m3/n, m4/n
	if m2 == 0 {
		return undefined
	}
	sigma := math.Sqrt(m2)
	t := (mean - 0.5) / sigma
	skew, kurt := m3/(m2*sigma), m4/(m2*m2)
	varT := math.Max(1-skew*t+(kurt-1)*t*t/4, 0)
	half := Z975 * math.Sqrt(varT/n)
	return Estimate{Elo: coeff * t, Low: coeff * (t - half), High: coeff * (t + half)}
}

// LOS is the likelihood of superiority from the pairs: the probability that
// the side is stronger, Φ((s−½)/(σ/√n)) with s the mean pair score, σ its
// standard deviation and n the pairs (fastchess's pentanomial LOS). It is
// 0.5 with no pairs, and 0, 0.5 or 1 while every pair scored the same.
func (p Penta) LOS() float64 {
	n := float64(p.Pairs())
	mean, variance := p.meanVar()
	switch {
	case n == 0 || mean == 0.5:
		return 0.5
	case variance == 0 && mean > 0.5:
		return 1
	case variance == 0:
		return 0
	}
	return 0.5 * math.Erfc(-(mean-0.5)/math.Sqrt(2*variance/n))
}

// DrawRatio is the fraction of pairs that scored 1 of 2 points (a draw and
// a draw, or a win and a loss), 0 with no pairs: the draw ratio fastchess
// reports for pentanomial statistics.
func (p Penta) DrawRatio() float64 {
	if p.Pairs() == 0 {
		return 0
	}
	return float64(p[2]) / float64(p.Pairs())
}

// PairsRatio is the number of pairs won (1½ or 2 points) over the number
// lost (0 or ½), as fastchess reports it: +Inf when none were lost and some
// won, NaN when none were either.
func (p Penta) PairsRatio() float64 {
	won, lost := float64(p[3]+p[4]), float64(p[0]+p[1])
	if lost == 0 && won == 0 {
		return math.NaN()
	}
	return won / lost
}
