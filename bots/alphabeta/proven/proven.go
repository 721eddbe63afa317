package proven

import (
	"cmp"
	"context"
	"math"
	"sync"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// Source says where a proven move came from.
type Source int

// The sources of a proven move.
const (
	FromBook Source = iota + 1
	FromSolver
)

func (s Source) String() string {
	switch s {
	case FromBook:
		return "book"
	case FromSolver:
		return "solver"
	}
	return "none"
}

// Estimator predicts how long the solver takes to score every column of
// a position, from its empty cells and what earlier solves measured. It
// is safe for concurrent use; one serves every game of a bot.
type Estimator struct {
	mu sync.Mutex
	// logN0 is the log of the nodes of Analyze at e0 empty cells; rate
	// the solver's nodes per second.
	logN0, rate float64
	e0          int
	growth      float64
}

// NewEstimator returns an estimator for a board of cells cells, with a
// prior measured on 6x7 (about a million nodes at 30 empty cells, a
// factor 1.8 a cell, ten million nodes a second).
func NewEstimator(cells int) *Estimator {
	return &Estimator{logN0: math.Log(1e6), rate: 1e7, e0: min(30, cells), growth: 1.8}
}

// Estimate returns the predicted time of Analyze with empty empty cells.
func (e *Estimator) Estimate(empty int) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	nodes := math.Exp(e.logN0 + float64(empty-e.e0)*math.Log(e.growth))
	sec := nodes / e.rate
	if sec > 1e6 {
		return time.Duration(1e6 * float64(time.Second))
	}
	return time.Duration(sec * float64(time.Second))
}

// Observe records a finished Analyze: its empty cells, nodes and time.
func (e *Estimator) Observe(empty int, nodes uint64, took time.Duration) {
	if nodes < 1000 || took <= 0 {
		return // too small to say anything
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	const w = 0.3
	r := float64(nodes) / took.Seconds()
	e.rate = (1-w)*e.rate + w*r
	n0 := math.Log(float64(nodes)) - float64(empty-e.e0)*math.Log(e.growth)
	e.logN0 = (1-w)*e.logN0 + w*n0
}

// Player plays the proven moves of one game. It is not safe for
// concurrent use (a game asks for one move at a time).
type Player struct {
	sv   *solver.Solver
	bk   *book.Book // may be nil
	est  *Estimator
	geom book.Geometry
	// lower is a proven lower bound of the value of the position of ply
	// lowerPly for the side to move there (the bot), when haveLower.
	lower, lowerPly int
	haveLower       bool
}

// NewPlayer returns the player of a game on sv's board; bk (nil for none)
// must be of the same board.
func NewPlayer(sv *solver.Solver, bk *book.Book, est *Estimator) *Player {
	p := sv.NewPosition()
	g := book.Geometry{Rows: p.Rows(), Cols: p.Cols(), K: p.K()}
	if bk != nil && bk.Geometry != g {
		bk = nil
	}
	return &Player{sv: sv, bk: bk, est: est, geom: g}
}

// Move is a proven move: its column (0-based), its exact score for the
// side to move, and where it came from.
type Move struct {
	Col, Score int
	Source     Source
	Nodes      uint64
	// Weak: Score is only the sign (1 win, 0 draw, -1 loss).
	Weak bool
}

// weakShare: a weak solve takes about a third of the exact one's nodes.
const weakShare = 3

// position replays cols on the solver's board.
func (p *Player) position(cols []int) (solver.Position, bool) {
	q := p.sv.NewPosition()
	for _, c := range cols {
		if !q.CanPlay(c) || q.GameOver() {
			return q, false
		}
		q.Play(c)
	}
	return q, !q.GameOver()
}

// Proven returns the best move of the position after cols (0-based
// columns) if the book or the solver proves it before deadline: the book
// when it holds every child, the solver when the estimate says it
// finishes in time. ok is false otherwise; the caller searches (and
// Keep checks its move against the value proven, if Proven proved it).
func (p *Player) Proven(ctx context.Context, cols []int, deadline time.Time) (Move, bool) {
	q, ok := p.position(cols)
	if !ok {
		return Move{}, false
	}
	if m, ok := p.fromBook(q, cols); ok {
		p.played(len(cols), m.Score)
		return m, true
	}
	left := time.Until(deadline)
	empty := p.geom.Cells() - len(cols)
	// The exact scores when they surely fit; only win, draw or loss (a
	// weak solve, about a third of the nodes) when that fits instead,
	// which keeps the outcome as surely.
	// A win proven before (the book's or the solver's move two plies
	// ago) is kept the cheapest way: the moves weakly, until one wins,
	// even when the estimate does not fit (then with six tenths of the
	// move, the search and its check getting the rest).
	knownWin := p.HasValue(len(cols)) && p.lower > 0
	est, weak, share := p.est.Estimate(empty), false, 9
	switch {
	case knownWin:
		weak = true
		if est/weakShare > left {
			share = 6
		}
	case est > left/4:
		if est/weakShare > left {
			return Move{}, false
		}
		weak = true
	}
	sctx, cancel := context.WithDeadline(ctx, time.Now().Add(left*time.Duration(share)/10))
	defer cancel()
	start := time.Now()
	// The position's value first (it fills the table its children use),
	// then the moves, centre first, until one reaches it. A win the bot
	// proved before (its book or solved move two plies ago) needs no
	// weak solve: the moves are solved until one wins.
	root, nodes := 1, uint64(0)
	if !knownWin {
		var err error
		if root, err = p.sv.Solve(sctx, q, weak); err != nil {
			return Move{}, false
		}
		nodes = p.sv.Nodes()
	}
	p.lower, p.lowerPly, p.haveLower = root, len(cols), true
	// Two passes: first every move with a spent context, which answers
	// only what the table already proves (the root's solve usually
	// stored its best move's subtree: a few thousand nodes a move at
	// most), then the others with the deadline.
	spent, stop := context.WithCancel(ctx)
	stop()
	scores := make([]int, p.geom.Cols)
	for i := range scores {
		scores[i] = solver.Invalid
	}
	col, score := -1, solver.Invalid
	for pass, pctx := range []context.Context{spent, sctx} {
		for _, c := range book.CentreFirst(p.geom.Cols) {
			if !q.CanPlay(c) || scores[c] != solver.Invalid {
				continue
			}
			switch {
			case q.IsWinningMove(c):
				scores[c] = p.geom.WinScore(len(cols))
				if weak {
					scores[c] = 1
				}
			case len(cols)+1 == p.geom.Cells():
				scores[c] = 0
			default:
				child := q
				child.Play(c)
				v, err := p.sv.Solve(pctx, child, weak)
				nodes += p.sv.Nodes()
				if err != nil {
					if pass == 0 {
						continue
					}
					return Move{}, false // the value stays proven for Keep
				}
				scores[c] = -v
			}
			if col < 0 || scores[c] > score {
				col, score = c, scores[c]
			}
			if score >= root {
				break
			}
		}
		if score >= root {
			break
		}
	}
	if weak { // as the exact solve it stands for
		p.est.Observe(empty, nodes*weakShare, time.Since(start)*weakShare)
	} else {
		p.est.Observe(empty, nodes, time.Since(start))
	}
	if col < 0 {
		return Move{}, false
	}
	p.played(len(cols), score)
	return Move{Col: col, Score: score, Source: FromSolver, Nodes: nodes, Weak: weak}, true
}

// fromBook is the book's move of q: the move it holds for the position
// (a strategy book), or the best of the scores it holds for every child.
func (p *Player) fromBook(q solver.Position, cols []int) (Move, bool) {
	if p.bk == nil {
		return Move{}, false
	}
	if e, ok := p.bk.Move(cols); ok && q.CanPlay(e.Move) {
		return Move{Col: e.Move, Score: e.Score, Source: FromBook, Weak: e.Weak}, true
	}
	if len(cols)+1 > p.bk.Plies {
		return Move{}, false
	}
	scores := make([]int, p.geom.Cols)
	next := append(append(make([]int, 0, len(cols)+1), cols...), 0)
	for c := range scores {
		switch {
		case !q.CanPlay(c):
			scores[c] = solver.Invalid
		case q.IsWinningMove(c):
			scores[c] = p.geom.WinScore(len(cols))
		case len(cols)+1 == p.geom.Cells():
			scores[c] = 0
		default:
			next[len(cols)] = c
			s, ok := p.bk.Score(next)
			if !ok {
				return Move{}, false
			}
			scores[c] = -s
		}
	}
	c, s := best(scores)
	if c < 0 {
		return Move{}, false
	}
	return Move{Col: c, Score: s, Source: FromBook}, true
}

// best returns the column of the highest score, the centre first among
// equals, or -1 when every column is Invalid.
func best(scores []int) (int, int) {
	col, score := -1, solver.Invalid
	for _, c := range book.CentreFirst(len(scores)) {
		if scores[c] != solver.Invalid && (col < 0 || scores[c] > score) {
			col, score = c, scores[c]
		}
	}
	return col, score
}

// played records that the bot, at ply ply, played a move of proven score.
func (p *Player) played(ply, score int) {
	p.lower, p.lowerPly, p.haveLower = score, ply+2, true
}

// Keep checks the search's move col in the position after cols: when the
// bot had proven the position worth at least a win or a draw (its value,
// proven by Proven before time ran out, or the score of its move two plies
// before), a move that
// weak solving shows loses that outcome is replaced by the first move,
// centre first, that keeps it, and the outcome stays proven for the
// bot's next move. Checks stop at deadline; an unchecked move stands (and
// the bot holds no proven value past it).
func (p *Player) Keep(ctx context.Context, cols []int, col int, deadline time.Time) int {
	if !p.HasValue(len(cols)) {
		return col
	}
	q, ok := p.position(cols)
	if !ok {
		return col
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	want := cmp.Compare(p.lower, 0)
	keeps := func(c int) (bool, bool) { // keeps the outcome, known
		if !q.CanPlay(c) {
			return false, true
		}
		if q.IsWinningMove(c) {
			return true, true
		}
		child := q
		child.Play(c)
		if child.GameOver() { // the board is full: a draw
			return want <= 0, true
		}
		v, err := p.sv.Solve(ctx, child, true)
		if err != nil {
			return false, false
		}
		return -v >= want, true
	}
	// A move checked to keep the outcome keeps it proven for the bot's
	// next move too (the opponent's answer cannot lower it).
	if ok, known := keeps(col); ok || !known {
		if ok {
			p.played(len(cols), want)
		}
		return col
	}
	for _, c := range book.CentreFirst(p.geom.Cols) {
		if c == col {
			continue
		}
		ok, known := keeps(c)
		if !known && ctx.Err() != nil {
			return col
		}
		if ok {
			p.played(len(cols), want)
			return c
		}
	}
	return col
}

// HasValue reports whether the player holds a proven win or draw for the
// position of ply stones that Keep would defend.
func (p *Player) HasValue(ply int) bool {
	return p.haveLower && p.lowerPly == ply && p.lower >= 0
}

// Forget drops the proven value kept (a position the player did not
// follow: an undo, a new game).
func (p *Player) Forget() { p.haveLower = false }
