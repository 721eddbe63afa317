package ratings

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// eloScale converts Elo to the natural logit: F(x) = σ(eloScale·x) with
// F(x) = 1/(1+10^(−x/400)).
const eloScale = math.Ln10 / 400

// divergence is the size, in Elo, past which a parameter is taken to run to
// infinity: a finite maximum this far out would need some 10^12 games.
const divergence = 5000

// cell holds the games of one ordered pairing: bot x moved first, bot o
// second. Counts are float64 because virtual games of the prior may be
// fractional.
type cell struct {
	x, o    int
	w, d, l float64 // first-player wins, draws, second-player wins
}

// problem is one fit: n bots, the cells of their games, and which of the
// advantage and draw parameters are free.
type problem struct {
	n     int
	cells []cell
	// fixAdv and fixDraw hold the value of a parameter that is not fitted;
	// NaN means free.
	fixAdv, fixDraw float64
}

// solution is the maximum of the likelihood: ratings with r[0] = 0, the
// first-move advantage and the draw parameter (Elo), and the covariance of
// the free parameters (the inverse of the observed information).
type solution struct {
	r         []float64
	adv, draw float64
	// cov is m×m over the free parameters: r[1..n−1], then adv and draw
	// when free (see index).
	cov        []float64
	lay        layout
	iterations int
	loglik     float64
}

// The errors Fit wraps, for callers to tell them apart with errors.Is.
var (
	// ErrNotFinite: the likelihood has its maximum at infinity (a bot or
	// a set of bots scored every point against the others, the first
	// player scored every point); a prior of virtual games helps.
	ErrNotFinite = errors.New("the maximum-likelihood estimate is not finite")
	// ErrNotDetermined: the games do not determine the parameters (bots
	// never linked by games, every game drawn, the advantage confounded
	// with the ratings).
	ErrNotDetermined = errors.New("the games do not determine the parameters")
	// ErrNoGames: no finished game to rate.
	ErrNoGames = errors.New("no finished games to rate")
	// ErrUnknownAnchor: the anchor bot played none of the games.
	ErrUnknownAnchor = errors.New("unknown anchor")
	// ErrBadOption: an Options field out of its range.
	ErrBadOption = errors.New("bad option")
)

// layout maps the parameters to indices of the free vector.
type layout struct {
	n, m            int
	advIdx, drawIdx int // −1 when fixed
}

func newLayout(p *problem) layout {
	l := layout{n: p.n, m: p.n - 1, advIdx: -1, drawIdx: -1}
	if math.IsNaN(p.fixAdv) {
		l.advIdx = l.m
		l.m++
	}
	if math.IsNaN(p.fixDraw) {
		l.drawIdx = l.m
		l.m++
	}
	return l
}

// params holds the current point of the search.
type params struct {
	r         []float64
	adv, draw float64
}

// workspace holds every buffer of a fit so that the Newton iterations
// allocate nothing.
type workspace struct {
	g, h, chol, step, trial []float64
	cur, next               params
}

func newWorkspace(n, m int) *workspace {
	return &workspace{
		g: make([]float64, m), h: make([]float64, m*m), chol: make([]float64, m*m),
		step: make([]float64, m), trial: make([]float64, m),
		cur:  params{r: make([]float64, n)},
		next: params{r: make([]float64, n)},
	}
}

// logSigmoid is log σ(z) = −log(1+e^−z), accurate for large |z|.
func logSigmoid(z float64) float64 {
	if z < -30 {
		return z
	}
	return -math.Log1p(math.Exp(-z))
}

// sigmoid is σ(z) = 1/(1+e^−z).
func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// drawLogProb is log P(draw) = log(σ(u) − σ(w)) with u = s(d−x), w = s(−d−x),
// computed as log σ(u) + log σ(−w) + log(1 − e^(w−u)), stable for all x and
// d > 0.
func drawLogProb(x, d float64) float64 {
	u, w := eloScale*(d-x), eloScale*(-d-x)
	return logSigmoid(u) + logSigmoid(-w) + math.Log(-math.Expm1(w-u))
}

// cellTerms returns a cell's log-likelihood and its first and second
// derivatives with respect to x (the first player's rating minus the
// second's plus the advantage) and d (the draw parameter), in Elo units.
// With d ≤ 0 and draws in the cell the likelihood is −Inf.
func cellTerms(c *cell, x, d float64) (ll, gx, gd, hxx, hxd, hdd float64) {
	s := eloScale
	if c.w > 0 {
		z := s * (x - d)
		q := sigmoid(-z) // 1 − σ(z)
		v := sigmoid(z) * q
		ll += c.w * logSigmoid(z)
		gx += c.w * s * q
		gd -= c.w * s * q
		hxx -= c.w * s * s * v
		hdd -= c.w * s * s * v
		hxd += c.w * s * s * v
	}
	if c.l > 0 {
		z := s * (-x - d)
		q := sigmoid(-z)
		v := sigmoid(z) * q
		ll += c.l * logSigmoid(z)
		gx -= c.l * s * q
		gd -= c.l * s * q
		hxx -= c.l * s * s * v
		hdd -= c.l * s * s * v
		hxd -= c.l * s * s * v
	}
	if c.d > 0 {
		if d <= 0 {
			return math.Inf(-1), 0, 0, 0, 0, 0
		}
		u, w := s*(d-x), s*(-d-x)
		su, sw := sigmoid(u), sigmoid(w)
		s1u, s1w := su*(1-su), sw*(1-sw)
		s2u, s2w := s1u*(1-2*su), s1w*(1-2*sw)
		lp := drawLogProb(x, d)
		p := math.Exp(lp)
		px := s * (s1w - s1u) / p
		pd := s * (s1u + s1w) / p
		pxx := s * s * (s2u - s2w) / p
		pxd := -s * s * (s2u + s2w) / p
		ll += c.d * lp
		gx += c.d * px
		gd += c.d * pd
		hxx += c.d * (pxx - px*px)
		hdd += c.d * (pxx - pd*pd)
		hxd += c.d * (pxd - px*pd)
	}
	return
}

// loglik is the log-likelihood at p.
func (pr *problem) loglik(p *params) float64 {
	var ll float64
	for i := range pr.cells {
		c := &pr.cells[i]
		x := p.r[c.x] - p.r[c.o] + p.adv
		var t float64
		if c.w > 0 {
			t += c.w * logSigmoid(eloScale*(x-p.draw))
		}
		if c.l > 0 {
			t += c.l * logSigmoid(eloScale*(-x-p.draw))
		}
		if c.d > 0 {
			if p.draw <= 0 {
				return math.Inf(-1)
			}
			t += c.d * drawLogProb(x, p.draw)
		}
		ll += t
	}
	return ll
}

// derivatives fills g and h (row-major m×m) with the gradient and the
// Hessian of the log-likelihood at p and returns the log-likelihood.
func (pr *problem) derivatives(lay layout, p *params, g, h []float64) float64 {
	clear(g)
	clear(h)
	m := lay.m
	var ll float64
	// a holds the (up to three) free indices x depends on and their signs.
	var ai [3]int
	var as [3]float64
	for k := range pr.cells {
		c := &pr.cells[k]
		x := p.r[c.x] - p.r[c.o] + p.adv
		l, gx, gd, hxx, hxd, hdd := cellTerms(c, x, p.draw)
		ll += l
		na := 0
		if c.x > 0 {
			ai[na], as[na] = c.x-1, 1
			na++
		}
		if c.o > 0 {
			ai[na], as[na] = c.o-1, -1
			na++
		}
		if lay.advIdx >= 0 {
			ai[na], as[na] = lay.advIdx, 1
			na++
		}
		for a := 0; a < na; a++ {
			g[ai[a]] += as[a] * gx
			for b := 0; b < na; b++ {
				h[ai[a]*m+ai[b]] += as[a] * as[b] * hxx
			}
		}
		if di := lay.drawIdx; di >= 0 {
			g[di] += gd
			h[di*m+di] += hdd
			for a := 0; a < na; a++ {
				h[ai[a]*m+di] += as[a] * hxd
				h[di*m+ai[a]] += as[a] * hxd
			}
		}
	}
	return ll
}

// cholesky factors the symmetric positive definite m×m matrix a into its
// lower triangle l (a = l·lᵀ), adding lambda to the diagonal; false if a is
// not positive definite.
func cholesky(a, l []float64, m int, lambda float64) bool {
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			sum := a[i*m+j]
			if i == j {
				sum += lambda
			}
			for k := 0; k < j; k++ {
				sum -= l[i*m+k] * l[j*m+k]
			}
			if i == j {
				if sum <= 1e-12*math.Max(1, math.Abs(a[i*m+i])) || math.IsNaN(sum) {
					return false
				}
				l[i*m+i] = math.Sqrt(sum)
			} else {
				l[i*m+j] = sum / l[j*m+j]
			}
		}
	}
	return true
}

// cholSolve solves l·lᵀ·x = b in place in b.
func cholSolve(l []float64, m int, b []float64) {
	for i := 0; i < m; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l[i*m+k] * b[k]
		}
		b[i] = s / l[i*m+i]
	}
	for i := m - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < m; k++ {
			s -= l[k*m+i] * b[k]
		}
		b[i] = s / l[i*m+i]
	}
}

// apply sets dst = src + t·step over the free parameters.
func (lay layout) apply(dst, src *params, step []float64, t float64) {
	dst.r[0] = 0
	for i := 1; i < lay.n; i++ {
		dst.r[i] = src.r[i] + t*step[i-1]
	}
	dst.adv, dst.draw = src.adv, src.draw
	if lay.advIdx >= 0 {
		dst.adv += t * step[lay.advIdx]
	}
	if lay.drawIdx >= 0 {
		dst.draw += t * step[lay.drawIdx]
	}
}

// fit maximises the likelihood by Newton's method with a backtracking line
// search. The log-likelihood is concave (log σ is concave and the draw
// probability, an integral of the log-concave logistic density over an
// interval whose ends are linear in the parameters, is log-concave), so the
// search converges to the maximum whenever the maximum is finite.
func (pr *problem) fit(initDraw float64) (*solution, error) {
	lay := newLayout(pr)
	m := lay.m
	ws := newWorkspace(pr.n, m)
	cur := &ws.cur
	cur.adv, cur.draw = 0, initDraw
	if !math.IsNaN(pr.fixAdv) {
		cur.adv = pr.fixAdv
	}
	if !math.IsNaN(pr.fixDraw) {
		cur.draw = pr.fixDraw
	}
	if m == 0 {
		return &solution{r: append([]float64(nil), cur.r...), adv: cur.adv, draw: cur.draw, lay: lay, loglik: pr.loglik(cur)}, nil
	}
	const maxIter = 500
	iter := 0
	converged := false
	for ; iter < maxIter; iter++ {
		ll := pr.derivatives(lay, cur, ws.g, ws.h)
		if math.IsInf(ll, -1) || math.IsNaN(ll) {
			return nil, fmt.Errorf("log-likelihood %v at the start of iteration %d", ll, iter)
		}
		// Newton direction: (−H)·step = g, damped if −H is not positive
		// definite (far from the maximum or along a flat direction).
		for i := range ws.h {
			ws.h[i] = -ws.h[i]
		}
		lambda := 0.0
		for !cholesky(ws.h, ws.chol, m, lambda) {
			if lambda == 0 {
				lambda = 1e-9
			} else {
				lambda *= 10
			}
			if lambda > 1e6 {
				return nil, fmt.Errorf("%w: the information matrix is singular", ErrNotDetermined)
			}
		}
		copy(ws.step, ws.g)
		cholSolve(ws.chol, m, ws.step)
		slope := 0.0
		maxStep := 0.0
		for i := 0; i < m; i++ {
			slope += ws.g[i] * ws.step[i]
			maxStep = math.Max(maxStep, math.Abs(ws.step[i]))
		}
		// Converged when the step is negligible or the predicted increase
		// (slope/2) is at the precision of the log-likelihood itself.
		if maxStep < 1e-9 || slope < 1e-13*math.Max(1, math.Abs(ll)) {
			// Near the maximum Newton converges quadratically: take the
			// last full step unless rounding makes it worse.
			next := &ws.next
			lay.apply(next, cur, ws.step, 1)
			if (lay.drawIdx < 0 || next.draw > 0) && pr.loglik(next) >= ll-1e-12*math.Abs(ll) {
				ws.cur, ws.next = ws.next, ws.cur
				cur = &ws.cur
			}
			converged = true
			break
		}
		// Backtracking: keep d > 0 and require the Armijo increase.
		t := 1.0
		next := &ws.next
		for ; t > 1e-12; t /= 2 {
			lay.apply(next, cur, ws.step, t)
			if lay.drawIdx >= 0 && next.draw <= 0 {
				continue
			}
			if nl := pr.loglik(next); nl > ll && nl >= ll+1e-4*t*slope {
				break
			}
		}
		if t <= 1e-12 {
			// No increase possible along the Newton direction: we are at
			// the maximum up to rounding.
			converged = true
			break
		}
		ws.cur, ws.next = ws.next, ws.cur
		cur = &ws.cur
		if far(cur, divergence) {
			return nil, divergedError(cur)
		}
	}
	if !converged {
		if far(cur, divergence/5) {
			return nil, divergedError(cur)
		}
		return nil, fmt.Errorf("no convergence after %d Newton iterations", maxIter)
	}
	sol := &solution{r: append([]float64(nil), cur.r...), adv: cur.adv, draw: cur.draw, lay: lay, iterations: iter}
	sol.loglik = pr.derivatives(lay, cur, ws.g, ws.h)
	for i := range ws.h {
		ws.h[i] = -ws.h[i]
	}
	if !cholesky(ws.h, ws.chol, m, 0) {
		return nil, fmt.Errorf("%w: the information matrix is singular at the maximum", ErrNotDetermined)
	}
	// Covariance = (−H)⁻¹, column by column.
	sol.cov = make([]float64, m*m)
	col := ws.step
	for j := 0; j < m; j++ {
		clear(col)
		col[j] = 1
		cholSolve(ws.chol, m, col)
		for i := 0; i < m; i++ {
			sol.cov[i*m+j] = col[i]
		}
	}
	return sol, nil
}

// far reports whether a parameter has run past limit.
func far(p *params, limit float64) bool {
	for _, r := range p.r {
		if math.Abs(r) > limit {
			return true
		}
	}
	return math.Abs(p.adv) > limit || p.draw > limit
}

// divergedError says which parameters ran to infinity.
func divergedError(p *params) error {
	const limit = divergence / 5
	var what []string
	for _, r := range p.r {
		if math.Abs(r) > limit {
			what = append(what, "rating differences")
			break
		}
	}
	if math.Abs(p.adv) > limit {
		what = append(what, "the first-move advantage")
	}
	if p.draw > limit {
		what = append(what, "the draw parameter")
	}
	if len(what) == 0 {
		what = append(what, "the estimates")
	}
	verb := "run"
	if len(what) == 1 && !strings.HasSuffix(what[0], "s") {
		verb = "runs"
	}
	return fmt.Errorf("%w: %s %s to infinity (the results of some colour order are all one way)", ErrNotFinite, strings.Join(what, " and "), verb)
}

// variance is cᵀ·cov·c for the contrast c with coefficients cr of the
// ratings r[0..n−1] (nil for none; r[0] is fixed, so its coefficient does
// not count) and cAdv, cDraw of the advantage and draw parameters (ignored
// when they are fixed).
func (s *solution) variance(cr []float64, cAdv, cDraw float64) float64 {
	lay := s.lay
	m := lay.m
	coef := func(i int) float64 {
		switch {
		case i < lay.n-1:
			if cr == nil {
				return 0
			}
			return cr[i+1]
		case i == lay.advIdx:
			return cAdv
		case i == lay.drawIdx:
			return cDraw
		}
		return 0
	}
	var v float64
	for i := 0; i < m; i++ {
		ci := coef(i)
		if ci == 0 {
			continue
		}
		for j := 0; j < m; j++ {
			v += ci * s.cov[i*m+j] * coef(j)
		}
	}
	return math.Max(v, 0)
}
