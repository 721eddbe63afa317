package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Elo models of the SPRT's hypotheses (SPRT.Model).
const (
	// ModelNormalized states elo0 and elo1 in normalized Elo (nElo), the
	// default of fastchess: the score's distance from ½ in units of its
	// standard deviation.
	ModelNormalized = "normalized"
	// ModelLogistic states elo0 and elo1 in logistic Elo, as fishtest does:
	// the expected score 1/(1+10^(−elo/400)).
	ModelLogistic = "logistic"
)

// nEloPerT converts a t-value per game, (score−½)/σ, to normalized Elo:
// 800/ln 10, the slope of the logistic Elo curve at a score of ½ times 4.
const nEloPerT = 800 / math.Ln10

// regularizeEps stands in for an outcome that has not been seen yet, as
// fishtest and fastchess do before solving for the maximum-likelihood
// distributions (a zero count would pin that outcome's probability to 0).
const regularizeEps = 1e-3

// SPRT is a generalized sequential probability ratio test (GSPRT) on game
// pairs of H0: elo = Elo0 against H1: elo = Elo1 with error rates Alpha
// (accepting H1 when H0 holds) and Beta (accepting H0 when H1 holds). Model
// is the Elo model Elo0 and Elo1 are stated in: ModelNormalized (also when
// empty) or ModelLogistic.
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
	Model                   string
}

// ModelName is the Elo model in use: Model, or ModelNormalized when empty.
func (s SPRT) ModelName() string {
	if s.Model == "" {
		return ModelNormalized
	}
	return s.Model
}

// Bounds returns the log-likelihood-ratio bounds: accept H0 at or below
// lower, H1 at or above upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// maxElo bounds |elo0| and |elo1|: past it a logistic score is within 1e-10
// of 0 or 1 and no match can tell the hypotheses apart.
const maxElo = 4000

// Validate checks the parameters; its errors name the value and what is
// accepted.
func (s SPRT) Validate() error {
	if !(s.Alpha > 0 && s.Alpha < 1) {
		return fmt.Errorf("sprt: alpha %g: must be a finite number between 0 and 1", s.Alpha)
	}
	if !(s.Beta > 0 && s.Beta < 1) {
		return fmt.Errorf("sprt: beta %g: must be a finite number between 0 and 1", s.Beta)
	}
	if !(s.Alpha+s.Beta < 1) {
		return fmt.Errorf("sprt: alpha %g + beta %g: must be less than 1", s.Alpha, s.Beta)
	}
	for _, e := range []struct {
		name string
		v    float64
	}{{"elo0", s.Elo0}, {"elo1", s.Elo1}} {
		if !(math.Abs(e.v) <= maxElo) {
			return fmt.Errorf("sprt: %s %g: must be a finite number between -%d and %d", e.name, e.v, maxElo, maxElo)
		}
	}
	if !(s.Elo1 > s.Elo0) {
		return fmt.Errorf("sprt: elo1 must be greater than elo0 (got elo0=%g, elo1=%g)", s.Elo0, s.Elo1)
	}
	switch s.Model {
	case "", ModelNormalized, ModelLogistic:
	default:
		return fmt.Errorf("sprt: model=%q: accepted are %s (%q, the default, or %q)", s.Model, modelList, ModelNormalized, ModelLogistic)
	}
	return nil
}

// LLR is the generalized log-likelihood ratio of H1 against H0 for the
// pentanomial results, computed as fishtest and fastchess compute it: the
// likelihood of the observed pairs under the most likely pentanomial
// distribution whose Elo (in the test's model) is Elo1, over the same under
// Elo0. It is 0 (no evidence either way) while the pairs' variance is
// undefined or degenerate: fewer than two different pair scores so far.
// It allocates nothing.
func (s SPRT) LLR(p Penta) float64 {
	if p.outcomes() < 2 {
		return 0
	}
	llr := s.gsprt(p)
	if math.IsNaN(llr) || math.IsInf(llr, 0) {
		return 0
	}
	return llr
}

// gsprt computes the GSPRT's LLR without the degenerate-variance guard.
func (s SPRT) gsprt(p Penta) float64 {
	phat, total := p.regularized()
	var p0, p1 [5]float64
	var ok0, ok1 bool
	if s.ModelName() == ModelLogistic {
		p0, ok0 = mleMean(&phat, ScoreFromElo(s.Elo0))
		p1, ok1 = mleMean(&phat, ScoreFromElo(s.Elo1))
	} else {
		// A pair's t-value is √2 times a game's: two games, half the variance.
		t0, t1 := math.Sqrt2*s.Elo0/nEloPerT, math.Sqrt2*s.Elo1/nEloPerT
		p0, ok0 = mleT(&phat, t0)
		p1, ok1 = mleT(&phat, t1)
		if !ok0 || !ok1 {
			return normalizedAlt(&phat, total, t0, t1)
		}
	}
	if !ok0 || !ok1 {
		return math.NaN()
	}
	var sum float64
	for i := range phat {
		sum += phat[i] * math.Log(p1[i]/p0[i])
	}
	return total * sum
}

// normalizedAlt approximates the normalized GSPRT's LLR in closed form, for
// the rare t-values far from the data's where mleT finds no solution:
// n·ln((1+(t̂−t0)²/2)/(1+(t̂−t1)²/2)) with n the pairs, t̂ their t-value and
// t0, t1 the hypotheses' (per pair; halved, the squares are per game) (M.
// Van den Bergh, "Comments on normalized Elo", section 4.2; fishtest's
// LLR_normalized_alt).
func normalizedAlt(phat *[5]float64, total, t0, t1 float64) float64 {
	mu, variance := distMeanVar(phat)
	t := (mu - 0.5) / math.Sqrt(variance)
	return total * math.Log((1+(t-t0)*(t-t0)/2)/(1+(t-t1)*(t-t1)/2))
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
func (s SPRT) Decide(p Penta) Decision { return s.DecideLLR(s.LLR(p)) }

// DecideLLR returns the decision for a log-likelihood ratio from LLR.
func (s SPRT) DecideLLR(llr float64) Decision {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// Fraction is how far llr has gone towards the bound it leans to, as
// cutechess-cli prints it beside the LLR ("llr 2.95 (100.2%)"): llr/upper
// when llr ≥ 0, otherwise −llr/lower (negative).
func (s SPRT) Fraction(llr float64) float64 {
	lo, hi := s.Bounds()
	if llr >= 0 {
		return llr / hi
	}
	return -llr / lo
}

// outcomes is the number of different pair scores seen.
func (p Penta) outcomes() int {
	n := 0
	for _, c := range p {
		if c > 0 {
			n++
		}
	}
	return n
}

// regularized returns the pentanomial frequencies with every unseen outcome
// counted as regularizeEps pairs, and the regularized number of pairs.
func (p Penta) regularized() (phat [5]float64, total float64) {
	for i, c := range p {
		phat[i] = float64(c)
		if c == 0 {
			phat[i] = regularizeEps
		}
		total += phat[i]
	}
	for i := range phat {
		phat[i] /= total
	}
	return phat, total
}

// pairScore is the score of pentanomial outcome k as a fraction of the
// pair's two points.
func pairScore(k int) float64 { return float64(k) / 4 }

// mleMean returns the most likely distribution on the five pair scores,
// given the empirical frequencies phat (all positive), among those with
// expected score s: p_i = phat_i/(1+θ(a_i−s)) with θ the root of
// Σ phat_i(a_i−s)/(1+θ(a_i−s)) = 0 (M. Van den Bergh, "Comparing the
// approximations for the generalized log likelihood ratio of a multinomial
// distribution", Proposition 1.1; fishtest's MLE_expected, fastchess's
// getLLR_logistic).
func mleMean(phat *[5]float64, s float64) ([5]float64, bool) {
	var d [5]float64
	for i := range d {
		d[i] = pairScore(i) - s
	}
	p, _, ok := tilt(phat, &d, 0)
	return p, ok
}

// mleT returns the most likely distribution on the five pair scores, given
// the empirical frequencies phat (all positive), among those with t-value
// (μ−½)/σ = t. It iterates the fixed point of M. Van den Bergh, "Comments on
// normalized Elo", section 4.1 (fishtest's MLE_t_value, fastchess's
// getLLR_normalized) from the uniform distribution, as they do (the fixed
// point it reaches can depend on the start, when an outcome has not been
// seen): with μ and σ those of the current estimate, φ_i = a_i − ½ − t·σ·(1+((a_i−μ)/σ)²)/2, and the next
// estimate is phat_i/(1+θφ_i) with θ the root of Σ phat_i φ_i/(1+θφ_i) = 0.
// Far from the data's own t-value (|t| near 1 and beyond, hundreds of nElo)
// that iteration can reach a φ of one sign, which has no root; then mleT
// follows a path of t-values from the data's own, where phat is the answer,
// to t, each solution starting the next.
func mleT(phat *[5]float64, t float64) ([5]float64, bool) {
	uniform := [5]float64{0.2, 0.2, 0.2, 0.2, 0.2}
	if p, ok := mleTFrom(phat, t, &uniform); ok {
		return p, true
	}
	mu, variance := distMeanVar(phat)
	tHat := (mu - 0.5) / math.Sqrt(variance)
	for steps := 4; steps <= 256; steps *= 2 {
		p := *phat
		ok := true
		for k := 1; k <= steps && ok; k++ {
			p, ok = mleTFrom(phat, tHat+(t-tHat)*float64(k)/float64(steps), &p)
		}
		if ok {
			return p, true
		}
	}
	return uniform, false
}

// mleTFrom is mleT's fixed-point iteration from the distribution start.
func mleTFrom(phat *[5]float64, t float64, start *[5]float64) ([5]float64, bool) {
	p := *start
	theta := 0.0
	for iter := 0; iter < 100; iter++ {
		mu, variance := distMeanVar(&p)
		sigma := math.Sqrt(variance)
		if !(sigma > 0) {
			return p, false
		}
		var phi [5]float64
		for i := range phi {
			z := (pairScore(i) - mu) / sigma
			phi[i] = pairScore(i) - 0.5 - t*sigma*(1+z*z)/2
		}
		next, th, ok := tilt(phat, &phi, theta)
		if !ok {
			return p, false
		}
		diff := 0.0
		for i := range p {
			diff = max(diff, math.Abs(next[i]-p[i]))
		}
		p, theta = next, th
		if diff < 1e-10 {
			return p, true
		}
	}
	return p, false
}

// distMeanVar returns the mean and variance of the pair score under p.
func distMeanVar(p *[5]float64) (mean, variance float64) {
	for i, q := range p {
		mean += q * pairScore(i)
	}
	for i, q := range p {
		dev := pairScore(i) - mean
		variance += q * dev * dev
	}
	return mean, variance
}

// tilt solves the secular equation Σ phat_i·d_i/(1+θ·d_i) = 0 for θ between
// its poles −1/max d and −1/min d, and returns phat_i/(1+θ·d_i), a
// probability distribution whose expectation of d is 0. It needs all phat
// positive and d of both signs. The left side decreases in θ from +∞ to −∞,
// so Newton's method from start (or 0, if start is not between the poles),
// kept inside a shrinking bracket, finds the root, which tilt also returns.
func tilt(phat, d *[5]float64, start float64) ([5]float64, float64, bool) {
	var out [5]float64
	dmin, dmax := d[0], d[0]
	for _, v := range d[1:] {
		dmin, dmax = min(dmin, v), max(dmax, v)
	}
	if !(dmin < 0 && dmax > 0) {
		return out, 0, false
	}
	lo0, hi0 := -1/dmax, -1/dmin // the poles; the root lies strictly between
	lo, hi := lo0, hi0           // the bracket
	theta := start
	if !(theta > lo && theta < hi) {
		theta = 0
	}
	for iter := 0; iter < 200; iter++ {
		var f, df float64
		for i, a := range d {
			q := 1 / (1 + theta*a)
			f += phat[i] * a * q
			df -= phat[i] * a * a * q * q
		}
		if f > 0 {
			lo = theta
		} else if f < 0 {
			hi = theta
		} else {
			break
		}
		// Newton's step on f·(θ−lo0)·(hi0−θ), which has the same root
		// between the poles lo0 and hi0 but no poles: the root is often
		// next to one (an outcome seen rarely or not at all), where f's own
		// Newton steps would overshoot.
		g := f * (theta - lo0) * (hi0 - theta)
		dg := df*(theta-lo0)*(hi0-theta) + f*((hi0-theta)-(theta-lo0))
		next := theta - g/dg
		if math.Abs(next-theta) <= 1e-14*max(1, math.Abs(theta)) {
			break // converged (the step may cross the bracket by rounding)
		}
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		theta = next
	}
	for i, a := range d {
		out[i] = phat[i] / (1 + theta*a)
	}
	return out, theta, true
}

// modelList names the accepted models in messages.
const modelList = ModelNormalized + " and " + ModelLogistic

// ParseSPRT reads the SPRT of kinrow match --sprt,
// "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized": missing keys take
// those defaults (the model is fastchess's default). It reads the syntax
// (KEY=VALUE, known keys, each once, numbers); Validate, which it calls,
// is the one check of the values.
func ParseSPRT(text string) (SPRT, error) {
	t := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}
	seen := map[string]bool{}
	for _, kv := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return t, fmt.Errorf("%q: want KEY=VALUE with keys elo0, elo1, alpha, beta, model", kv)
		}
		if seen[k] {
			return t, fmt.Errorf("%s is given twice", k)
		}
		seen[k] = true
		var f float64
		switch k {
		case "model":
			if v == "" {
				return t, fmt.Errorf("model=: accepted are %s", modelList)
			}
			t.Model = v
			continue
		case "elo0", "elo1", "alpha", "beta":
			var err error
			if f, err = strconv.ParseFloat(v, 64); err != nil {
				return t, fmt.Errorf("%q: want KEY=NUMBER (a finite number) with keys elo0, elo1, alpha, beta, or model=%s|%s", kv, ModelNormalized, ModelLogistic)
			}
		default:
			return t, fmt.Errorf("unknown key %q: accepted are elo0, elo1, alpha, beta, model", k)
		}
		switch k {
		case "elo0":
			t.Elo0 = f
		case "elo1":
			t.Elo1 = f
		case "alpha":
			t.Alpha = f
		case "beta":
			t.Beta = f
		}
	}
	return t, t.Validate()
}
