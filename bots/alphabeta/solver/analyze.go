package solver

import (
	"context"
	"math"
)

// Analyze returns one score per column (index 0 is column 1) for the side
// to move: the exact score (its sign with weak) of the position after
// playing that column, Invalid for a full column. A move that wins at once
// gets the score of that win. In a finished game every column is Invalid.
//
// It first solves p itself, which bounds every move's score from above and
// fills the shared table, then each move in turn with that bound.
func (s *Solver) Analyze(ctx context.Context, p Position, weak bool) ([]int, error) {
	if err := s.check(&p); err != nil {
		return nil, err
	}
	g := &s.g
	res := make([]int, g.cols)
	for i := range res {
		res[i] = Invalid
	}
	if _, over := g.terminal(p.cur, p.mask, p.moves); over {
		return res, nil
	}
	s.start(ctx)
	defer s.finish()
	n := p.moves
	win := g.winCells(p.cur, p.mask)
	root := math.MaxInt
	if win&(p.mask+g.bottom)&g.board == 0 {
		v, err := s.search(rootCall{cur: p.cur, mask: p.mask, n: n, weak: weak, lo: math.MinInt, hi: math.MaxInt})
		if err != nil {
			return nil, err
		}
		root = v
	}
	for c := 0; c < g.cols; c++ {
		if !p.CanPlay(c) {
			continue
		}
		mv := (p.mask + g.bottom) & g.colMask[c]
		if win&mv != 0 {
			res[c] = clampWeak(g.scoreAt(n), weak)
			continue
		}
		// The child's score is at least -root.
		v, err := s.search(rootCall{cur: p.cur ^ p.mask, mask: p.mask | mv, n: n + 1, weak: weak, lo: -root, hi: math.MaxInt, neg: true})
		if err != nil {
			return nil, err
		}
		res[c] = v
	}
	return res, nil
}
