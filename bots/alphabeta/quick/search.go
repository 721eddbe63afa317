package quick

import (
	"context"
	"errors"
	"math/bits"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// Values: a win for the side to move at the root whose last stone is the
// t-th ply from the root scores win − t, a loss −(win − t); every other
// value lies within ±proven.
const (
	win    = 1 << 20
	proven = win - 1<<12
)

// minDepth: iterations up to this depth always finish (a few thousand
// nodes at most), however late, so a starved move still sees the
// tactics a few plies deep.
const minDepth = 4

// pollMask: the clock is read every pollMask+1 nodes.
const pollMask = 1023

// Report describes one finished iteration of BestMove.
type Report struct {
	Depth int
	// Value is the root's value for the side to move (see Proven).
	Value int
	// Col is the best column, 0-based.
	Col   int
	Nodes uint64
	// Proven: Value is a win or a loss found by the search; Plies its
	// distance (the ply of the winning stone, 1 for the side to move's
	// next stone).
	Proven bool
	Plies  int
	// Exact: the search reached the end of every line (no heuristic
	// leaf), so Value is the position's value (0: a draw).
	Exact bool
}

// Searcher searches the positions of one board. It is not safe for
// concurrent use.
type Searcher struct {
	ev       evaluator
	tt       table
	cells    int
	order    []int // columns, centre first
	history  [64]uint32
	nodes    uint64
	ctx      context.Context
	deadline time.Time
	soft     bool // the deadline applies (past minDepth)
	stopped  bool
	hitLeaf  bool
}

// New returns a searcher for rows x cols boards where k in a row wins,
// with a transposition table of about ttMiB MiB (at least 16 KiB).
func New(rows, cols, k, ttMiB int) *Searcher {
	return &Searcher{ev: newEvaluator(rows, cols, k), tt: newTable(ttMiB), cells: rows * cols, order: book.CentreFirst(cols)}
}

// NewGame forgets what earlier games taught the searcher.
func (s *Searcher) NewGame() {
	s.tt.clear()
	s.history = [64]uint32{}
}

// errOver: BestMove was asked for a move in a finished game.
var errOver = errors.New("quick: the game is over")

// BestMove searches p by iterative deepening until ctx ends (iterations
// up to minDepth always finish) or the value is proven, and returns the
// best column of the last finished iteration.
func (s *Searcher) BestMove(ctx context.Context, p solver.Position, report func(Report)) (int, Report, error) {
	if p.GameOver() {
		return -1, Report{}, errOver
	}
	s.ctx, s.stopped, s.soft = ctx, false, false
	s.deadline, _ = ctx.Deadline()
	for i := range s.history {
		s.history[i] >>= 2
	}
	start := s.nodes
	best := Report{Col: -1}
	empty := s.cells - p.Moves()
	for depth := 1; depth <= empty; depth++ {
		s.soft = depth > minDepth
		if s.poll(); s.stopped {
			break
		}
		s.hitLeaf = false
		v, col := s.root(p, depth)
		if s.stopped {
			break
		}
		r := Report{Depth: depth, Value: v, Col: col, Nodes: s.nodes - start, Exact: !s.hitLeaf}
		if v > proven || v < -proven {
			r.Proven, r.Plies = true, win-v
			if v < 0 {
				r.Plies = win + v
			}
		}
		best = r
		if report != nil {
			report(r)
		}
		if r.Exact || (r.Proven && v > 0) {
			break
		}
	}
	if best.Col < 0 { // no iteration finished
		best.Col = s.firstPlayable(p)
	}
	return best.Col, best, nil
}

// root searches the root's moves to depth and returns its value and best
// column.
func (s *Searcher) root(p solver.Position, depth int) (int, int) {
	v := s.negamax(p, depth, 0, -win-1, win+1)
	e := s.tt.slot(p.Key())
	if e.key == p.Key() && e.move > 0 && p.CanPlay(int(e.move)-1) {
		return v, int(e.move) - 1
	}
	// The root is won or lost at once (no entry stored): its winning
	// column, else the first playable one.
	for _, c := range s.order {
		if p.CanPlay(c) && p.IsWinningMove(c) {
			return v, c
		}
	}
	return v, s.firstPlayable(p)
}

// firstPlayable returns the first column, centre first, that p can play
// (p's game is not over).
func (s *Searcher) firstPlayable(p solver.Position) int {
	for _, c := range s.order {
		if p.CanPlay(c) {
			return c
		}
	}
	return s.order[0]
}

// poll ends the search once the deadline has passed (past minDepth) or
// ctx is cancelled.
func (s *Searcher) poll() {
	if s.ctx.Err() != nil && (s.soft || !errors.Is(s.ctx.Err(), context.DeadlineExceeded)) {
		s.stopped = true
		return
	}
	if s.soft && !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped = true
	}
}

// negamax returns the value of p for the side to move, searched depth
// plies deep (forced moves not counted), ply plies below the root.
func (s *Searcher) negamax(p solver.Position, depth, ply, alpha, beta int) int {
	s.nodes++
	if s.nodes&pollMask == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	ownWin, oppWin := p.WinCells(), p.OppWinCells()
	tops := p.Playable()
	if ownWin&tops != 0 {
		return win - ply - 1
	}
	if p.Moves() >= s.cells-1 {
		return 0 // the last cell cannot win: a draw
	}
	moves := tops
	forced := tops & oppWin
	if forced != 0 {
		if forced&(forced-1) != 0 {
			return -(win - ply - 2)
		}
		moves = forced
	}
	moves &^= oppWin >> 1
	if moves == 0 {
		return -(win - ply - 2)
	}
	cur, mask := p.Bits()
	if depth <= 0 && forced == 0 {
		s.hitLeaf = true
		return s.ev.eval(cur, cur^mask, ownWin, oppWin, p.Moves()%2 == 0)
	}
	// The fastest win still possible and the slowest loss bound the
	// value.
	alpha = max(alpha, -(win - ply - 4))
	beta = min(beta, win-ply-3)
	if alpha >= beta {
		return alpha
	}
	key := p.Key()
	e := s.tt.slot(key)
	ttCol := -1
	if e.key == key {
		ttCol = int(e.move) - 1
		if int(e.depth) >= depth {
			v := fromTable(e.value, ply)
			switch {
			case e.flag == exact,
				e.flag == lower && v >= beta,
				e.flag == upper && v <= alpha:
				s.hitLeaf = s.hitLeaf || e.heur
				return v
			}
		}
	}
	// Order: the table's move, then by the threats a move makes, the
	// windows through its cell, and the history of cutoffs.
	var cols [32]int
	var keys [32]int
	n := 0
	for _, c := range s.order {
		bit := moves & p.ColumnMask(c)
		if bit == 0 {
			continue
		}
		k := 0
		if c == ttCol {
			k = 1 << 30
		} else {
			q := p
			q.Play(c)
			cell := bits.TrailingZeros64(bit)
			made := q.OppWinCells() // the mover's threats
			k = bits.OnesCount64(made&^oppWin)<<16 + s.ev.cell[cell]<<8 + int(min(s.history[cell], 255))
		}
		i := n
		for ; i > 0 && keys[i-1] < k; i-- {
			cols[i], keys[i] = cols[i-1], keys[i-1]
		}
		cols[i], keys[i] = c, k
		n++
	}
	next := depth - 1
	if forced != 0 {
		next = depth
	}
	a0 := alpha
	best, bestCol := -win-1, cols[0]
	// hitLeaf is this subtree's from here on (see entry.heur).
	outer := s.hitLeaf
	s.hitLeaf = false
	for i := 0; i < n; i++ {
		q := p
		q.Play(cols[i])
		var v int
		if i == 0 {
			v = -s.negamax(q, next, ply+1, -beta, -alpha)
		} else {
			v = -s.negamax(q, next, ply+1, -alpha-1, -alpha)
			if v > alpha && v < beta && !s.stopped {
				v = -s.negamax(q, next, ply+1, -beta, -alpha)
			}
		}
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestCol = v, cols[i]
		}
		if v > alpha {
			alpha = v
			if alpha >= beta {
				cell := bits.TrailingZeros64(tops & p.ColumnMask(cols[i]))
				s.history[cell] += uint32(depth * depth)
				break
			}
		}
	}
	heur := s.hitLeaf
	s.hitLeaf = outer || heur
	flag := exact
	switch {
	case best <= a0:
		flag = upper
	case best >= beta:
		flag = lower
	}
	*e = entry{key: key, value: toTable(best, ply), depth: uint8(min(depth, 255)), flag: flag, heur: heur, move: uint8(bestCol + 1)}
	return best
}

// Score returns the report's value on the solver's scale (package solver:
// floor((cells+1)/2) + 1 minus the winner's stones at the win, negative
// for a loss) when it is proven, the heuristic value otherwise, for the
// side to move in p, the position searched.
func (r Report) Score(p solver.Position) int {
	if !r.Proven {
		return r.Value
	}
	top := (p.Rows()*p.Cols()+1)/2 + 1
	if r.Value > 0 { // the side to move's stone wins at ply Plies (odd)
		return top - (p.Moves()/2 + (r.Plies+1)/2)
	}
	return -(top - ((p.Moves()+1)/2 + r.Plies/2))
}

// valueAt returns p's value searched depth plies deep with no deadline
// (tests and benchmarks).
func (s *Searcher) valueAt(p solver.Position, depth int) int {
	s.ctx, s.deadline, s.stopped, s.soft = context.Background(), time.Time{}, false, false
	return s.negamax(p, depth, 0, -win-1, win+1)
}
