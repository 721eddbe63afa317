package ratings

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
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
	// when free (see layout); nil when none is free.
	cov        *mat.SymDense
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
// allocate nothing: the gradient g, the Hessian h (row-major m×m), the
// Newton step, and −H shifted by the damping then factored in place by
// gonum's LAPACK (the Cholesky factor U of UᵀU in its upper triangle).
type workspace struct {
	g, h, step []float64
	chol       blas64.Symmetric
	cur, next  params
}

func newWorkspace(n, m int) *workspace {
	return &workspace{
		g: make([]float64, m), h: make([]float64, m*m), step: make([]float64, m),
		chol: blas64.Symmetric{N: m, Stride: m, Uplo: blas.Upper, Data: make([]float64, m*m)},
		cur:  params{r: make([]float64, n)},
		next: params{r: make([]float64, n)},
	}
}

// factor factors a + lambda·I (a symmetric m×m, row-major) into ws.chol
// (lapack64.Potrf); false if it is not positive definite, counting a pivot
// below 1e−12 of its diagonal entry (or of 1) as none: Newton's step is then
// damped further.
func (ws *workspace) factor(a []float64, m int, lambda float64) bool {
	u := ws.chol.Data
	copy(u, a)
	for i := 0; i < m; i++ {
		u[i*m+i] += lambda
	}
	if _, ok := lapack64.Potrf(ws.chol); !ok {
		return false
	}
	for i := 0; i < m; i++ {
		p := u[i*m+i]
		if p*p <= 1e-12*math.Max(1, math.Abs(a[i*m+i])) || math.IsNaN(p) {
			return false
		}
	}
	return true
}

// factors is the triangular factor that factor left in ws.chol.
func (ws *workspace) factors() blas64.Triangular {
	c := ws.chol
	return blas64.Triangular{N: c.N, Stride: c.Stride, Uplo: c.Uplo, Diag: blas.NonUnit, Data: c.Data}
}

// solve sets ws.step to the solution of (the factored matrix)·step = g.
func (ws *workspace) solve() {
	copy(ws.step, ws.g)
	lapack64.Potrs(ws.factors(), blas64.General{Rows: len(ws.step), Cols: 1, Stride: 1, Data: ws.step})
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
	start := params{r: make([]float64, pr.n), draw: initDraw}
	if !math.IsNaN(pr.fixAdv) {
		start.adv = pr.fixAdv
	}
	if !math.IsNaN(pr.fixDraw) {
		start.draw = pr.fixDraw
	}
	if m == 0 {
		return &solution{r: start.r, adv: start.adv, draw: start.draw, lay: lay, loglik: pr.loglik(&start)}, nil
	}
	ws := newWorkspace(pr.n, m)
	cur := &ws.cur
	cur.adv, cur.draw = start.adv, start.draw
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
		for !ws.factor(ws.h, m, lambda) {
			if lambda == 0 {
				lambda = 1e-9
			} else {
				lambda *= 10
			}
			if lambda > 1e6 {
				return nil, fmt.Errorf("%w: the information matrix is singular", ErrNotDetermined)
			}
		}
		ws.solve()
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
	if !ws.factor(ws.h, m, 0) {
		return nil, fmt.Errorf("%w: the information matrix is singular at the maximum", ErrNotDetermined)
	}
	// Covariance = (−H)⁻¹, from the factors (lapack64.Potri, in place: its
	// upper triangle is the symmetric inverse's).
	inv, ok := lapack64.Potri(ws.factors())
	if !ok {
		return nil, fmt.Errorf("%w: the information matrix cannot be inverted", ErrNotDetermined)
	}
	sol.cov = new(mat.SymDense)
	sol.cov.SetRawSymmetric(inv)
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
	if m == 0 {
		return 0
	}
	c := mat.NewVecDense(m, nil)
	for i := 0; i < m; i++ {
		c.SetVec(i, coef(i))
	}
	return math.Max(mat.Inner(c, s.cov, c), 0)
}
