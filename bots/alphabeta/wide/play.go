package wide

import (
	"context"
	"errors"
	"time"
)

// Report describes a finished iteration of BestMove.
type Report struct {
	Depth int    // nominal depth of the iteration, in plies
	Best  int    // best column (0-based)
	Value int32  // the search value: heuristic, or fromScore of a proven score
	Exact bool   // Score is proven
	Win   bool   // Best wins by force, with a score of at least Score
	Score int    // the proven score if Exact or Win (package doc scale), else 0
	Nodes uint64 // nodes searched so far by this call
}

// maxIterDepth bounds iterative deepening (the table stores depths in a
// byte).
const maxIterDepth = 250

// BestMove searches the position after moves (0-based columns from the
// empty board) by iterative deepening until ctx ends or the position is
// solved, and returns the report of the last finished iteration: its best
// move is always legal, even if no iteration finished. An immediate win is
// played at once, and so is a move that is the only one not losing at
// once. report, if not nil, gets every finished iteration. It stops
// deepening once the score is exact or a forced win is found, and, with
// SetEarlyStop, as soon as the next iteration could not finish by the
// deadline (estimated from the last two): time saved for a game clock.
func (s *Searcher) BestMove(ctx context.Context, moves []int, report func(Report)) (Report, error) {
	if err := s.load(moves); err != nil {
		return Report{}, err
	}
	b := s.b
	if b.Over() {
		return Report{}, errors.New("wide: the game is over")
	}
	s.start(ctx)
	t0 := time.Now()
	n := b.ply
	winCol, cnt := s.moves(0)
	switch {
	case winCol >= 0:
		r := Report{Depth: 1, Best: winCol, Value: fromScore(b.scoreAt(n)), Exact: true, Win: true, Score: b.scoreAt(n), Nodes: 1}
		return r, nil
	case cnt == 0: // every move loses at once: play the first legal one
		for _, c := range s.order {
			if b.CanPlay(int(c)) {
				r := Report{Depth: 1, Best: int(c), Value: fromScore(-b.scoreAt(n + 1)), Exact: true, Score: -b.scoreAt(n + 1), Nodes: 1}
				return r, nil
			}
		}
	case cnt == 1:
		return Report{Depth: 1, Best: int(s.mv[0][0]), Nodes: 1}, nil
	}
	s.sortMoves(0, -1)
	best := Report{Best: int(s.mv[0][0])}
	var last, prev time.Duration // the last two iterations' times
	for depth := 1; depth <= min(b.cells-n, maxIterDepth); depth++ {
		it := time.Now()
		s.rootBest = -1
		v, h := s.negamax(depth, 0, -inf, inf)
		if s.stop || s.rootBest < 0 {
			break
		}
		r := Report{Depth: depth, Best: s.rootBest, Value: v, Exact: !h, Nodes: s.nodes}
		r.Win = v > mate && !s.bestHeur
		if r.Exact || r.Win {
			r.Score = toScore(v)
		}
		best = r
		if report != nil {
			report(r)
		}
		if r.Exact || r.Win {
			break
		}
		prev, last = last, time.Since(it)
		if s.earlyStop && !s.deadline.IsZero() && prev > 0 {
			growth := max(2, float64(last)/float64(max(prev, time.Microsecond)))
			if time.Since(t0)+time.Duration(growth*float64(last)) > s.deadline.Sub(t0) {
				break
			}
		}
	}
	return best, nil
}

// SetEarlyStop makes BestMove stop deepening when the next iteration
// could not finish in time, instead of searching to the deadline: for
// games on a clock, where time not spent now is kept for later moves.
func (s *Searcher) SetEarlyStop(on bool) { s.earlyStop = on }
