package mics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// Limits of the options.
const (
	// MaxBranching is the largest branching factor l.
	MaxBranching = 64
	// MaxDepth is the largest depth limit.
	MaxDepth = 64
	// DefaultMoveTime is the time per move when BestMove's context has no
	// deadline and Options.MoveTime is zero.
	DefaultMoveTime = time.Second
	// WinScore is the score BestMove reports for a won position, less the
	// plies to the win (negated for a lost one).
	WinScore = 1_000_000_000
)

const (
	maxPly     = MaxDepth + 64 // depth plus the forced-reply extensions
	rootMax    = 64            // root candidates considered at most
	checkEvery = 64            // nodes between two looks at the clock (power of 2)
	foulSlack  = 4             // renju: black's candidates asked for beyond l, some being fouls
	winScore   = int64(1) << 61
	inf        = int64(1) << 62
)

// Options tune a Searcher. The zero value chooses everything from the board
// and the time.
type Options struct {
	// Branching is l, the number of cells explored per node, from 1 to
	// MaxBranching; 0 chooses it from the board and the node budget.
	Branching int
	// Depth is the depth limit in plies, from 1 to MaxDepth; 0 adapts it
	// from move to move so that the node budget is used.
	Depth int
	// Seed breaks ties between cells of equal value.
	Seed uint64
	// MoveTime is the time per move when BestMove's context has no
	// deadline; 0 means DefaultMoveTime.
	MoveTime time.Duration
}

// Check tells whether the options are in range, naming the one that is not.
func (o Options) Check() error {
	if o.Branching < 0 || o.Branching > MaxBranching {
		return fmt.Errorf("option branching=%d out of range 1..%d", o.Branching, MaxBranching)
	}
	if o.Depth < 0 || o.Depth > MaxDepth {
		return fmt.Errorf("option depth=%d out of range 1..%d", o.Depth, MaxDepth)
	}
	if o.MoveTime < 0 {
		return fmt.Errorf("move time %v is negative", o.MoveTime)
	}
	return nil
}

// Searcher chooses moves for one game: a negamax alpha-beta over the best l
// cells of each node by MICS value, within a node budget calibrated to the
// machine and a deadline. It is not safe for concurrent use.
type Searcher struct {
	rules engine.Rules
	opt   Options
	b     *Board
	legal []engine.Move

	nps   float64 // nodes per second; 0 until calibrated
	depth int     // adaptive depth limit; 0 until the first search

	// The current search.
	l       int
	nodes   int64
	limit   int64
	stopAt  time.Time
	done    <-chan struct{}
	aborted bool
	bufs    [maxPly][]Candidate
	root    []Candidate

	// Where the line rule forbids moves (black's in renju) the engine's
	// position follows the board through the search, to judge the
	// candidate moves (fouls, which the board's windows do not see; wins
	// and overlines are the board's own).
	renju bool
	pos   *engine.Position
}

// New returns a Searcher for games of rules r. It fails on invalid rules or
// options out of range.
func New(r engine.Rules, o Options) (*Searcher, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.K > 255 {
		return nil, fmt.Errorf("k %d out of range: this bot plays k up to 255", r.K)
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.MoveTime == 0 {
		o.MoveTime = DefaultMoveTime
	}
	s := &Searcher{rules: r, opt: o, b: NewBoard(r), renju: r.Line.Forbids(engine.X) || r.Line.Forbids(engine.O),
		legal: make([]engine.Move, 0, r.Cells()), root: make([]Candidate, 0, rootMax)}
	s.b.SetSeed(o.Seed)
	backing := make([]Candidate, maxPly*MaxBranching)
	for p := range s.bufs {
		s.bufs[p] = backing[p*MaxBranching : p*MaxBranching : (p+1)*MaxBranching]
	}
	return s, nil
}

// Rules returns the rules the Searcher plays.
func (s *Searcher) Rules() engine.Rules { return s.rules }

// Follow makes the Searcher's board hold the stones of pos (same rules),
// incrementally: calling it after each move played keeps BestMove's own
// catch-up to nothing, which matters on boards where a long game costs
// milliseconds to replay.
func (s *Searcher) Follow(pos *engine.Position) {
	if pos.Rules() == s.rules {
		s.b.Load(pos)
	}
}

// Nodes returns the nodes searched by the last BestMove.
func (s *Searcher) Nodes() int64 { return s.nodes }

// NodesPerSecond returns the calibrated search speed, refined after every
// move; 0 before the first calibration.
func (s *Searcher) NodesPerSecond() float64 { return s.nps }

// Calibrate measures how many nodes per second this machine searches, by
// searching the empty board for d (or until ctx ends). The node budget of a
// move is that speed times the move's time. BestMove calibrates on its own
// position if Calibrate was not called; every move refines the figure.
func (s *Searcher) Calibrate(ctx context.Context, d time.Duration) float64 {
	s.b.Reset()
	if s.renju {
		s.pos = engine.NewPosition(s.rules) // follows the board, as in BestMove
	}
	stop := time.Now().Add(d)
	if dl, ok := ctx.Deadline(); ok && dl.Before(stop) {
		stop = dl
	}
	s.measure(stop, ctx.Done())
	return s.nps
}

// measure searches the board the Searcher holds until stop, with no node
// limit, and sets the speed from the nodes searched.
func (s *Searcher) measure(stop time.Time, done <-chan struct{}) {
	s.stopAt, s.done, s.aborted = stop, done, false
	s.l = s.branching(0)
	start, n0 := time.Now(), s.nodes
	s.limit = math.MaxInt64
	for !s.aborted && time.Now().Before(stop) {
		// Deep enough not to finish except on small boards, which are then
		// searched again until the time is up.
		s.negamax(12, 0, -inf, inf)
		if s.b.nfree == 0 {
			break
		}
	}
	s.aborted = false
	if el := time.Since(start).Seconds(); el > 0 && s.nodes > n0 {
		s.nps = float64(s.nodes-n0) / el
	}
}

// branching returns l for a node budget (0 when not known yet).
func (s *Searcher) branching(budget int64) int {
	if s.opt.Branching > 0 {
		return s.opt.Branching
	}
	l := 8
	switch {
	case budget > 2_000_000:
		l = 12
	case budget > 100_000:
		l = 10
	}
	if s.rules.Cells() <= 16 {
		l = s.rules.Cells() // full width on small boards
	}
	if s.rules.Gravity() && s.rules.Cols <= 12 {
		l = s.rules.Cols // every column
	}
	return min(l, MaxBranching)
}

// depthLimit returns the depth for a search of budget nodes over rootN root
// moves with branching l, or the Depth option.
func (s *Searcher) depthLimit(budget int64, rootN, l int) int {
	d := s.opt.Depth
	if d == 0 {
		if s.depth == 0 {
			// First guess: an alpha-beta tree of effective branching
			// l^0.6 per root move's share of the budget.
			per := max(float64(budget)/float64(rootN), 1)
			eb := max(2, math.Pow(float64(l), 0.6))
			s.depth = min(max(int(math.Log(per)/math.Log(eb)), 1), MaxDepth)
		}
		d = s.depth
	}
	return max(1, min(d, s.b.nfree))
}

// BestMove returns a move for the side to move in pos, before ctx's
// deadline (or Options.MoveTime when it has none). pos must have the
// Searcher's rules and an open game; it is not changed. report, if not nil,
// is called when the best root move changes and at the end, with the depth
// limit, the score (WinScore less the plies to a win, negative for a loss,
// otherwise the evaluation in units of an empty window) and the nodes
// searched. A legal move is held from the start: when the deadline comes or
// ctx is cancelled, the best move found so far is returned, never an error.
func (s *Searcher) BestMove(ctx context.Context, pos *engine.Position, report func(depth, score int, best engine.Move, nodes int64)) (engine.Move, error) {
	start := time.Now()
	if pos.Rules() != s.rules {
		return engine.NoMove, fmt.Errorf("position of %s, searcher of %s", pos.Rules(), s.rules)
	}
	if pos.Result() != engine.Open {
		return engine.NoMove, errors.New("the game is over")
	}
	s.legal = pos.LegalMoves(s.legal[:0])
	move := s.legal[0] // the fallback, from the very start
	// The search stops at its own move time, or before the deadline by the
	// reserve every kinrow bot keeps in hand (sdk.Reserve).
	stop := start.Add(s.opt.MoveTime)
	if deadline, ok := ctx.Deadline(); ok {
		stop = start.Add(sdk.SearchTime(deadline.Sub(start)))
	}
	s.stopAt, s.done, s.aborted, s.nodes = stop, ctx.Done(), false, 0

	b := s.b
	b.Load(pos)
	if s.renju {
		s.pos = pos.Clone()
	}
	// Root candidates, best first; a win or a single forced block needs no search.
	root := b.Candidates(s.root[:0], rootMax)
	if s.renju && s.rules.Line.Forbids(pos.ToMove()) {
		root, _ = s.dropFouls(root, false)
	}
	if len(root) == 0 {
		return move, nil
	}
	move = b.MoveOf(int(root[0].Cell))
	if root[0].Key >= winKey {
		s.emit(report, 1, winScore-1, move)
		return move, nil
	}
	if root[0].Key >= blockKey {
		n := 1
		for n < len(root) && root[n].Key >= blockKey {
			n++
		}
		root = root[:n]
	}
	if len(root) == 1 {
		s.emit(report, 1, 0, move)
		return move, nil
	}
	if s.nps == 0 {
		s.measure(time.Now().Add(min(time.Until(stop)/4, 50*time.Millisecond)), s.done)
		s.stopAt, s.aborted, s.nodes = stop, false, 0
	}
	searchStart := time.Now()
	budget := max(int64(s.nps*stop.Sub(searchStart).Seconds()), 1)
	s.l = s.branching(budget)
	if len(root) > 2*s.l {
		root = root[:2*s.l]
	}
	// Deepen from the adaptive depth while the time allows: each iteration
	// is a budgeted search of the root moves, the best so far first.
	depth := s.depthLimit(budget, len(root), s.l)
	completed, final, finalDepth := 0, int64(0), 0
	for {
		itStart := time.Now()
		budget := max(int64(s.nps*stop.Sub(itStart).Seconds()), 1)
		best, score, done := s.searchRoot(root, depth, budget, report)
		if best >= 0 {
			move, final, finalDepth = b.MoveOf(int(root[best].Cell)), score, depth
			// The best first in the next iteration; the rest keep their order.
			c := root[best]
			copy(root[1:best+1], root[:best])
			root[0] = c
		}
		if !done {
			break
		}
		completed = depth
		if s.opt.Depth > 0 || depth >= min(MaxDepth, b.nfree) || score >= winScore-maxPly || score <= -winScore+maxPly {
			break
		}
		if left := time.Until(stop); left < 3*time.Since(itStart) {
			break // the next iteration would not finish
		}
		depth++
	}
	if el := time.Since(searchStart).Seconds(); el > 0.002 && s.nodes > 1000 {
		s.nps = (s.nps + float64(s.nodes)/el) / 2
	}
	if s.opt.Depth == 0 {
		// The next move starts one below the depth completed here.
		if completed > 0 {
			s.depth = max(1, completed-1)
		} else {
			s.depth = max(1, depth-1)
		}
	}
	if finalDepth > 0 {
		s.emit(report, finalDepth, final, move)
	}
	if !pos.Legal(move) {
		move = s.legal[0] // cannot happen; never answer an illegal move
	}
	return move, nil
}

// dropFouls takes the moves renju forbids to black out of its candidates
// (asking the engine's position, which follows the board), and reports
// whether one of them blocked a five of white's: black cannot stop that
// five, and loses. With stop it returns at once when it finds one.
func (s *Searcher) dropFouls(cands []Candidate, stop bool) ([]Candidate, bool) {
	out, lost := cands[:0], false
	for _, c := range cands {
		if s.pos.Foul(s.b.MoveOf(int(c.Cell))) != engine.NoFoul {
			// A foul is never black's own five (a five wins, forbidden
			// shape or not), so a block key here is white's five.
			if c.Key >= blockKey {
				if lost = true; stop {
					return out, true
				}
			}
			continue
		}
		out = append(out, c)
	}
	return out, lost
}

// searchRoot searches the root moves to depth plies, sharing budget nodes
// over them best first in proportion to 1/(rank+1), the unused part of each
// share passing to the next. It returns the index and score of the best move
// among those searched (-1 if none), and false if the search was stopped.
func (s *Searcher) searchRoot(root []Candidate, depth int, budget int64, report func(depth, score int, best engine.Move, nodes int64)) (int, int64, bool) {
	b := s.b
	h := 0.0
	for i := range root {
		h += 1 / float64(i+1)
	}
	var carry int64
	best, bestScore := -1, -inf
	for i, c := range root {
		allot := max(carry+int64(float64(budget)/(float64(i+1)*h)), 1)
		n0 := s.nodes
		s.limit = n0 + allot
		s.mark(int(c.Cell))
		v := -s.negamax(depth-1, 1, -inf, -bestScore)
		s.unmark()
		if s.aborted {
			return best, bestScore, false
		}
		carry = max(allot-(s.nodes-n0), 0)
		if v > bestScore {
			best, bestScore = i, v
			s.emit(report, depth, v, b.MoveOf(int(c.Cell)))
		}
		if v >= winScore-maxPly {
			break // a win: nothing better to find
		}
	}
	return best, bestScore, true
}

// emit calls report, if any, with the score in reporting units.
func (s *Searcher) emit(report func(depth, score int, best engine.Move, nodes int64), depth int, v int64, m engine.Move) {
	if report == nil {
		return
	}
	var score int
	switch {
	case v >= winScore-maxPly:
		score = WinScore - int(winScore-v)
	case v <= -winScore+maxPly:
		score = -WinScore + int(winScore+v)
	default:
		score = int(max(min(v/s.b.t.w[0], WinScore-1000), -WinScore+1000))
	}
	report(depth, score, m, s.nodes)
}

// expired reports whether the search must stop: the time is up or the
// context is done.
func (s *Searcher) expired() bool {
	if time.Now().After(s.stopAt) {
		return true
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// negamax returns the value of the board for the side to move, searched to
// depth plies over the best l cells of each node; ply is the distance from
// the root. Past the node limit the nodes are evaluated statically. A node
// where the opponent threatens to win is searched one ply further (the reply
// is forced). When the search is aborted it returns 0, to be ignored.
func (s *Searcher) negamax(depth, ply int, alpha, beta int64) int64 {
	s.nodes++
	if s.nodes&(checkEvery-1) == 0 && s.expired() {
		s.aborted = true
	}
	if s.aborted {
		return 0
	}
	b := s.b
	me := (b.n - b.nfree) & 1
	if b.CanWin(me) {
		return winScore - int64(ply+1)
	}
	if b.nfree == 0 {
		return 0
	}
	fouls := s.renju && s.rules.Line.Forbids(engine.Color(me)) // a side with forbidden moves (black in renju) to move
	if fouls && s.pos.Result() == engine.Draw {
		return 0 // every empty cell is forbidden to black
	}
	if depth <= 0 || s.nodes >= s.limit || ply >= maxPly-1 {
		if s.nodes >= s.limit || ply >= maxPly-1 || !b.CanWin(me^1) {
			return b.Evaluate(me)
		}
		depth = 1
	}
	var cands []Candidate
	if fouls {
		// A few more than l, as some may be fouls.
		cands = b.Candidates(s.bufs[ply], min(s.l+foulSlack, MaxBranching))
		var lost bool
		if cands, lost = s.dropFouls(cands, true); lost {
			return -(winScore - int64(ply+2)) // white's five cannot be blocked
		}
		if len(cands) > s.l {
			cands = cands[:s.l]
		}
		if len(cands) == 0 {
			return b.Evaluate(me) // the best cells are all forbidden to black
		}
	} else if cands = b.Candidates(s.bufs[ply], s.l); len(cands) == 0 {
		return 0
	}
	if cands[0].Key >= blockKey {
		// The opponent wins next unless blocked: only the blocks count.
		n := 1
		for n < len(cands) && cands[n].Key >= blockKey {
			n++
		}
		cands = cands[:n]
	}
	best := -inf
	for _, c := range cands {
		s.mark(int(c.Cell))
		v := -s.negamax(depth-1, ply+1, -beta, -alpha)
		s.unmark()
		if s.aborted {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// mark plays cell on the board, and on the engine's position under renju.
func (s *Searcher) mark(cell int) {
	if s.renju {
		s.pos.Play(s.b.MoveOf(cell))
	}
	s.b.Mark(cell)
}

// unmark takes back the last mark.
func (s *Searcher) unmark() {
	if s.renju {
		s.pos.Undo()
	}
	s.b.Unmark()
}
