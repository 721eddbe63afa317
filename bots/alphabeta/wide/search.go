package wide

import (
	"context"
	"fmt"
	"time"
)

// pollMask: the clock and the context are checked every pollMask+1 nodes.
const pollMask = 63

// infDepth is the depth of exact searches: no horizon.
const infDepth = 1 << 20

// Searcher searches the positions of one board size. It keeps its
// transposition table from one call to the next. A Searcher is not safe
// for concurrent use.
type Searcher struct {
	b     *Board
	tt    table
	order []int32   // columns, centre first
	mv    [][]int32 // moves per ply
	keys  [][]int64 // their ordering keys
	nodes uint64

	done      <-chan struct{}
	deadline  time.Time // zero: none
	stop      bool
	earlyStop bool // see SetEarlyStop
	branch    int  // moves searched per node when not exact; 0: all
	rootBest  int  // best column of the last root search (ply 0)
	bestHeur  bool // its value rests on a heuristic leaf
}

// New returns a searcher for rows x cols boards where k in a row wins,
// with a transposition table of about ttMiB MiB (DefaultTTMiB if ttMiB <=
// 0). See Fits for the sizes it takes.
func New(rows, cols, k, ttMiB int) (*Searcher, error) {
	b, err := NewBoard(rows, cols, k)
	if err != nil {
		return nil, err
	}
	if ttMiB <= 0 {
		ttMiB = DefaultTTMiB
	}
	return &Searcher{b: b, tt: newTable(ttMiB), order: centreOrder(cols)}, nil
}

// Nodes returns the number of positions searched by the last call.
func (s *Searcher) Nodes() uint64 { return s.nodes }

// SetBranching limits the moves BestMove searches at each node, the root
// included, to the n best by the move ordering (0: all, the default), as
// package search does. The pruned search reaches deeper on wide boards
// (one ply more on 38x58x12 in 100 ms) but proves nothing beyond one-move
// threats where it prunes; Solve and Analyze always search every move.
func (s *Searcher) SetBranching(n int) { s.branch = max(n, 0) }

// Reset empties the transposition table.
func (s *Searcher) Reset() { s.tt.clear() }

// load sets the searcher's board to the position after moves (0-based
// columns from the empty board).
func (s *Searcher) load(moves []int) error {
	b := s.b
	b.Reset()
	for i, c := range moves {
		if b.Over() {
			b.Reset()
			return fmt.Errorf("wide: move %d (column %d): the game is already over", i+1, c+1)
		}
		if !b.CanPlay(c) {
			b.Reset()
			return fmt.Errorf("wide: move %d: column %d is full or off the board (1..%d)", i+1, c+1, b.cols)
		}
		b.Play(c)
	}
	return nil
}

// start prepares a search: node count, context and deadline.
func (s *Searcher) start(ctx context.Context) {
	s.nodes = 0
	s.stop = false
	s.done = ctx.Done()
	s.deadline, _ = ctx.Deadline()
	s.tt.age++
}

// poll is called every pollMask+1 nodes; it sets s.stop when the
// deadline has passed or the context ended.
func (s *Searcher) poll() {
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stop = true
		return
	}
	select {
	case <-s.done:
		s.stop = true
	default:
	}
}

// negamax returns a fail-soft alpha-beta value of the board's position,
// searched depth plies deep (infDepth: to the end), and whether it rests
// on a heuristic leaf. The side that just moved must not have won. With
// v the value: v <= alpha means value <= v, v >= beta value >= v,
// otherwise v is the value. A stopped search returns (0, true); callers
// check s.stop. At ply 0 the best move is left in s.rootBest.
func (s *Searcher) negamax(depth, ply int, alpha, beta int32) (int32, bool) {
	s.nodes++
	if s.nodes&pollMask == 0 {
		s.poll()
	}
	if s.stop {
		return 0, true
	}
	b := s.b
	n := b.ply
	if n == b.cells {
		return 0, false
	}
	winCol, cnt := s.moves(ply)
	if winCol >= 0 {
		if ply == 0 {
			s.rootBest, s.bestHeur = winCol, false
		}
		return fromScore(b.scoreAt(n)), false
	}
	if cnt == 0 {
		return fromScore(-b.scoreAt(n + 1)), false
	}
	if n >= b.cells-2 {
		if ply == 0 {
			s.rootBest, s.bestHeur = int(s.mv[0][0]), false
		}
		return 0, false
	}
	// We cannot win now, and the opponent cannot win on its next move.
	lo, hi := fromScore(-b.scoreAt(n+3)), fromScore(b.scoreAt(n+2))
	if ply > 0 {
		if lo >= beta {
			return lo, false
		}
		if hi <= alpha {
			return hi, false
		}
	}
	if depth <= 0 {
		return clamp32(b.evaluate(), lo, hi), true
	}
	usedHeur := false
	ttCol := -1
	if e := s.tt.probe(b.key1, b.key2); e != nil {
		ttCol = int(e.move)
		if ply > 0 && (e.flags&heur == 0 || int(e.depth) >= depth) {
			if e.flags&lower != 0 {
				lo = max(lo, e.val)
			}
			if e.flags&upper != 0 {
				hi = min(hi, e.val)
			}
			usedHeur = e.flags&heur != 0
			if lo >= beta || lo >= hi {
				return lo, usedHeur
			}
			if hi <= alpha {
				return hi, usedHeur
			}
		}
	}
	if cnt > 1 {
		s.sortMoves(ply, ttCol)
		if s.branch > 0 && cnt > s.branch && depth < infDepth {
			cnt, usedHeur = s.branch, true // forward pruning: no longer a proof
		}
	}
	a, bb := max(alpha, lo), min(beta, hi)
	a0 := a
	best, bestCol := -inf, -1
	mv := s.mv[ply]
	for i := 0; i < cnt; i++ {
		c := int(mv[i])
		b.Play(c)
		var v int32
		var h bool
		if i == 0 {
			v, h = s.negamax(depth-1, ply+1, -bb, -a)
			v = -v
		} else {
			v, h = s.negamax(depth-1, ply+1, -a-1, -a)
			v = -v
			if v > a && v < bb && !s.stop {
				var h2 bool
				v, h2 = s.negamax(depth-1, ply+1, -bb, -a)
				v, h = -v, h || h2
			}
		}
		b.Undo()
		if s.stop {
			return 0, true
		}
		v = clamp32(v, lo, hi)
		usedHeur = usedHeur || h
		if v > best {
			best, bestCol = v, c
			if ply == 0 {
				s.rootBest, s.bestHeur = c, h
			}
		}
		if v >= bb {
			break
		}
		a = max(a, v)
	}
	flags := lower | upper
	switch {
	case best >= bb:
		flags = lower
	case best <= a0:
		flags = upper
		bestCol = ttCol
	}
	if usedHeur {
		flags |= heur
	}
	s.tt.store(b.key1, b.key2, best, bestCol, depth, flags)
	return best, usedHeur
}
