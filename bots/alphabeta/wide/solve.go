package wide

import (
	"context"
	"math"
)

// Invalid is the score Analyze gives to a full column.
const Invalid = math.MinInt32

// Solve returns the exact score of the position after moves (0-based
// columns from the empty board) for the side to move (package doc scale),
// or with weak only its sign: 1 win, 0 draw, -1 loss. A finished game gets
// its final score. It stops with ctx.Err() when ctx ends.
func (s *Searcher) Solve(ctx context.Context, moves []int, weak bool) (int, error) {
	if err := s.load(moves); err != nil {
		return 0, err
	}
	b := s.b
	switch {
	case b.won:
		return clampWeak(-b.scoreAt(b.ply-1), weak), nil
	case b.Full():
		return 0, nil
	}
	s.start(ctx)
	v := s.solve(weak, math.MinInt, math.MaxInt)
	if s.stop {
		return 0, stopErr(ctx)
	}
	return v, nil
}

// stopErr is the error of a search stopped by ctx (its deadline seen
// before ctx noticed included).
func stopErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// Analyze returns one score per column (index 0 is column 1) for the side
// to move: the exact score (its sign with weak) after playing that column,
// Invalid for a full column; a move that wins at once gets that win's
// score. In a finished game every column is Invalid. It first solves the
// position itself, which bounds every move's score from above and fills
// the table.
func (s *Searcher) Analyze(ctx context.Context, moves []int, weak bool) ([]int, error) {
	if err := s.load(moves); err != nil {
		return nil, err
	}
	b := s.b
	res := make([]int, b.cols)
	for i := range res {
		res[i] = Invalid
	}
	if b.Over() {
		return res, nil
	}
	s.start(ctx)
	n := b.ply
	root := math.MaxInt
	if s.winNow() < 0 {
		root = s.solve(weak, math.MinInt, math.MaxInt)
	}
	for c := 0; c < b.cols && !s.stop; c++ {
		if !b.CanPlay(c) {
			continue
		}
		if b.IsWinningMove(c) {
			res[c] = clampWeak(b.scoreAt(n), weak)
			continue
		}
		b.Play(c)
		if b.Full() {
			res[c] = 0
		} else {
			res[c] = -s.solve(weak, -root, math.MaxInt) // the child scores at least -root
		}
		b.Undo()
	}
	if s.stop {
		return nil, stopErr(ctx)
	}
	return res, nil
}

// solve returns the score of the board's open position (its sign if
// weak) knowing it lies in [lo, hi].
func (s *Searcher) solve(weak bool, lo, hi int) int {
	b := s.b
	n := b.ply
	if s.winNow() >= 0 {
		return clampWeak(b.scoreAt(n), weak)
	}
	lo = max(lo, -b.scoreAt(n+1))
	hi = min(hi, b.scoreAt(n+2))
	if weak {
		lo, hi = max(lo, -1), min(hi, 1)
	}
	return clampWeak(s.narrow(lo, hi), weak)
}

func clampWeak(v int, weak bool) int {
	if weak {
		return min(max(v, -1), 1)
	}
	return v
}

// narrow finds the score in [lo, hi] by null-window searches, each
// halving the range, biased toward 0 first where most scores lie.
func (s *Searcher) narrow(lo, hi int) int {
	lo0, hi0 := lo, hi
	for lo < hi && !s.stop {
		med := lo + (hi-lo)/2
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		v, _ := s.negamax(infDepth, 1, fromScore(med), fromScore(med+1))
		r := toScore(v)
		if r <= med {
			hi = max(r, lo0)
		} else {
			lo = min(r, hi0)
		}
	}
	return lo
}
