package search

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/kinrow/kinrow/engine"
)

// Scores: a win for the side to move at ply p (from the root) is Win − p,
// a loss −(Win − p); heuristic values stay far below Proven.
const (
	Win    = 1 << 29
	Proven = Win - 1<<16
)

// Options tune a Searcher.
type Options struct {
	TTMiB     int // transposition table size (default 64)
	MaxBranch int // candidates searched per node when not solving (default 16; 0 keeps the default)
}

type ttEntry struct {
	key   uint64
	value int32
	move  int32
	depth int16
	flag  uint8 // exact, lower or upper bound
	heur  bool  // the value rests on a depth-limited (heuristic) leaf
}

const (
	flagExact uint8 = iota + 1
	flagLower
	flagUpper
)

// errStop unwinds a search whose time is up.
var errStop = errors.New("search stopped")

// Searcher searches positions of one rules. Not safe for concurrent use.
type Searcher struct {
	rules     engine.Rules
	pos       *engine.Position
	win       *windows
	tt        []ttEntry
	mask      uint64
	maxBranch int
	solving   bool
	hitLeaf   bool // a depth-limited (heuristic) leaf was reached
	nodes     uint64
	ctx       context.Context
	deadline  time.Time // from ctx, checked every few nodes
	moves     [][]engine.Move
	gains     [][]int32
	mark      []uint32 // candidate marks, by generation
	gen       uint32
	history   []engine.Move
	sym       *engine.Symmetries // the board's, for the table's key (the least symmetric hash)
	symh      engine.SymHash     // the working position's hash under each symmetry
}

// New returns a searcher for rules.
func New(rules engine.Rules, opt Options) (*Searcher, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	if opt.TTMiB == 0 {
		opt.TTMiB = 64
	}
	if opt.TTMiB < 1 || opt.TTMiB > 1<<16 {
		return nil, fmt.Errorf("table size %d MiB out of range 1..65536", opt.TTMiB)
	}
	if opt.MaxBranch == 0 {
		opt.MaxBranch = 16
	}
	n := 1
	for n*2*24 <= opt.TTMiB<<20 {
		n *= 2
	}
	s := &Searcher{rules: rules, tt: make([]ttEntry, n), mask: uint64(n - 1), maxBranch: opt.MaxBranch}
	s.reset(engine.NewPosition(rules))
	return s, nil
}

// reset loads pos (copied) and recomputes the window counts.
func (s *Searcher) reset(pos *engine.Position) {
	s.pos = engine.NewPosition(s.rules)
	s.win = newWindows(s.rules)
	if s.sym == nil {
		s.sym = s.rules.Symmetries()
	}
	s.symh = s.sym.Hashes(s.pos)
	for _, m := range pos.Moves(nil) {
		s.play(m)
	}
	if s.mark == nil {
		s.mark = make([]uint32, s.rules.Cells())
	}
}

// buffers makes sure the per-ply move lists reach ply.
func (s *Searcher) buffers(ply int) {
	for len(s.moves) <= ply {
		s.moves = append(s.moves, make([]engine.Move, 0, 64))
		s.gains = append(s.gains, make([]int32, 0, 64))
	}
}

// setContext records ctx and its deadline for the search.
func (s *Searcher) setContext(ctx context.Context) {
	s.ctx = ctx
	s.deadline, _ = ctx.Deadline()
}

// stopError is the error of a search that stopped: ctx's, or, when the
// search saw the deadline pass before ctx noticed, DeadlineExceeded. Never
// nil, so that a stopped search is never taken for a result.
func stopError(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// stopped reports whether the search must stop now.
func (s *Searcher) stopped() bool {
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		return true
	}
	return s.ctx.Err() != nil
}

func (s *Searcher) play(m engine.Move) {
	c := s.pos.ToMove()
	cell := s.pos.Cell(m)
	s.pos.Play(m)
	s.win.update(cell, c, 1)
	s.symh.Toggle(cell, c)
}

func (s *Searcher) undo() {
	cell := s.pos.Cell(s.pos.LastMove())
	if s.rules.Gravity() {
		col := int(s.pos.LastMove())
		cell = (s.pos.Height(col)-1)*s.rules.Cols + col
	}
	c := s.pos.ToMove().Other()
	s.pos.Undo()
	s.win.update(cell, c, -1)
	s.symh.Toggle(cell, c)
}

// Nodes is the number of nodes searched since the searcher was made.
func (s *Searcher) Nodes() uint64 { return s.nodes }

// candidates fills s.moves[ply] with the moves to search, best first:
// wins, then forced blocks, then by gain. It returns how many immediate
// wins and opponent threats there are, and, for black in renju, lost: a
// cell where white makes five is forbidden to black, which cannot block it.
// Black's fouls are judged only for the moves selected (they never win:
// a five wins forbidden shape or not), and dropped.
func (s *Searcher) candidates(ply int, ttMove engine.Move) (wins, threats int, lost bool) {
	p := s.pos
	me := p.ToMove()
	s.buffers(ply)
	ms := s.moves[ply][:0]
	gs := s.gains[ply][:0]
	fouls := s.rules.Line.Forbids(me) // black avoids renju's forbidden moves
	add := func(m engine.Move) {
		cell := p.Cell(m)
		g := s.win.gain(cell, me)
		switch {
		case p.WinsAt(cell, me):
			g = gainWin
			wins++
		case p.WinsAt(cell, me.Other()):
			g = gainBlock
			threats++
		}
		if m == ttMove {
			g = max(g, 1<<28)
		}
		ms = append(ms, m)
		gs = append(gs, g)
	}
	if s.rules.Gravity() {
		for c := 0; c < s.rules.Cols; c++ {
			if p.Height(c) < s.rules.Rows {
				add(engine.Move(c))
			}
		}
	} else if p.Ply() == 0 && !s.solving {
		add(engine.Move((s.rules.Rows/2)*s.rules.Cols + s.rules.Cols/2))
	} else {
		rows, cols := s.rules.Rows, s.rules.Cols
		if s.solving {
			for cell := 0; cell < rows*cols; cell++ {
				if p.At(cell/cols, cell%cols) == engine.Empty {
					add(engine.Move(cell))
				}
			}
		} else { // the empty cells within two of a stone, each once
			s.gen++
			s.history = p.Moves(s.history[:0])
			for _, m := range s.history {
				r0, c0 := int(m)/cols, int(m)%cols
				for r := max(r0-2, 0); r <= min(r0+2, rows-1); r++ {
					for c := max(c0-2, 0); c <= min(c0+2, cols-1); c++ {
						cell := r*cols + c
						if s.mark[cell] != s.gen && p.At(r, c) == engine.Empty {
							s.mark[cell] = s.gen
							add(engine.Move(cell))
						}
					}
				}
			}
		}
	}
	// Order by gain, descending. When not solving only the best few are
	// searched, so select those (O(n·k)) instead of sorting them all.
	k := len(ms)
	if !s.solving {
		k = min(k, max(s.maxBranch, wins+threats))
	}
	for i := 0; i < k; i++ {
		b := i
		for j := i + 1; j < len(ms); j++ {
			if gs[j] > gs[b] {
				b = j
			}
		}
		ms[i], ms[b] = ms[b], ms[i]
		gs[i], gs[b] = gs[b], gs[i]
		if fouls && p.Foul(ms[i]) != engine.NoFoul {
			if gs[i] == gainBlock {
				lost = true // white's five there cannot be blocked
				threats--
			}
			last := len(ms) - 1
			ms[i], gs[i] = ms[last], gs[last]
			ms, gs = ms[:last], gs[:last]
			k = min(k, len(ms))
			i--
		}
	}
	if !s.solving {
		ms, gs = ms[:k], gs[:k] // the rest were not judged for fouls
	}
	s.moves[ply], s.gains[ply] = ms, gs
	return wins, threats, lost
}

// Gains of the moves that decide at once: a win, the block of the
// opponent's win.
const (
	gainWin   = 1 << 30
	gainBlock = 1 << 29
)

// evaluate is the heuristic value for the side to move.
func (s *Searcher) evaluate() int32 {
	if s.pos.ToMove() == engine.X {
		return s.win.eval
	}
	return -s.win.eval
}

func (s *Searcher) negamax(depth, ply int, alpha, beta int32) (int32, error) {
	s.nodes++
	if s.nodes&15 == 0 && s.stopped() {
		return 0, errStop
	}
	p := s.pos
	if res := p.Result(); res != engine.Open {
		if res == engine.Draw {
			return 0, nil
		}
		return -(Win - int32(ply)), nil // the side that just moved won
	}
	if depth <= 0 {
		s.hitLeaf = true
		return s.evaluate(), nil
	}
	key, k := s.symh.Least()
	e := &s.tt[key&s.mask]
	ttMove := engine.NoMove
	if e.key == key {
		ttMove = s.sym.Move(s.sym.Inverse(k), engine.Move(e.move))
		if int(e.depth) >= depth {
			v := fromTT(e.value, ply)
			if (e.flag == flagExact) || (e.flag == flagLower && v >= beta) || (e.flag == flagUpper && v <= alpha) {
				if e.heur && v > -Proven && v < Proven {
					s.hitLeaf = true
				}
				return v, nil
			}
		}
	}
	wins, threats, lost := s.candidates(ply, ttMove)
	ms := s.moves[ply]
	if wins > 0 {
		return Win - int32(ply) - 1, nil
	}
	if lost {
		return -(Win - int32(ply) - 2), nil // white's next move makes five
	}
	if len(ms) == 0 { // renju: every cell near the stones is forbidden to black
		s.hitLeaf = true
		return s.evaluate(), nil
	}
	n := len(ms)
	if threats > 0 {
		n = min(n, threats) // every threat must be blocked: only blocks help
	} else if !s.solving && n > s.maxBranch {
		n = s.maxBranch
	}
	alpha0 := alpha
	outerLeaf := s.hitLeaf
	s.hitLeaf = false
	best, bestMove := int32(-Win-1), ms[0]
	for i := 0; i < n; i++ {
		m := s.moves[ply][i]
		s.play(m)
		var v int32
		var err error
		if i == 0 {
			v, err = s.negamax(depth-1, ply+1, -beta, -alpha)
			v = -v
		} else {
			v, err = s.negamax(depth-1, ply+1, -alpha-1, -alpha)
			v = -v
			if err == nil && v > alpha && v < beta {
				v, err = s.negamax(depth-1, ply+1, -beta, -alpha)
				v = -v
			}
		}
		s.undo()
		if err != nil {
			s.hitLeaf = true
			return 0, err
		}
		if v > best {
			best, bestMove = v, m
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	flag := flagExact
	switch {
	case best <= alpha0:
		flag = flagUpper
	case best >= beta:
		flag = flagLower
	}
	*e = ttEntry{key: key, value: toTT(best, ply), move: int32(s.sym.Move(k, bestMove)), depth: int16(depth), flag: flag, heur: s.hitLeaf}
	s.hitLeaf = s.hitLeaf || outerLeaf
	return best, nil
}

// Proven scores are stored relative to the node, not the root.
func toTT(v int32, ply int) int32 {
	switch {
	case v > Proven:
		return v + int32(ply)
	case v < -Proven:
		return v - int32(ply)
	}
	return v
}

func fromTT(v int32, ply int) int32 {
	switch {
	case v > Proven:
		return v - int32(ply)
	case v < -Proven:
		return v + int32(ply)
	}
	return v
}

// Report is a search report after each finished iteration.
type Report struct {
	Depth int
	Score int32
	Best  engine.Move
	Nodes uint64 // searched by this call so far
	Exact bool   // the score is proved (win, loss, or a draw searched to the end)
}

// BestMove searches pos by iterative deepening until ctx ends or the game
// is solved, and returns the best move of the last finished iteration
// (always a legal move, even if no iteration finished).
func (s *Searcher) BestMove(ctx context.Context, pos *engine.Position, report func(Report)) (engine.Move, Report, error) {
	if pos.Result() != engine.Open {
		return engine.NoMove, Report{}, errors.New("the game is over")
	}
	s.reset(pos)
	s.setContext(ctx)
	s.solving = false
	s.candidates(0, engine.NoMove)
	best := Report{}
	if len(s.moves[0]) > 0 {
		best.Best = s.moves[0][0]
	} else if legal := pos.LegalMoves(nil); len(legal) > 0 {
		best.Best = legal[0] // renju: black's cells near the stones are all forbidden
	} else {
		return engine.NoMove, Report{}, errors.New("no legal move")
	}
	empties := s.rules.Cells() - pos.Ply()
	before := s.nodes // the reports count this call's nodes
	for depth := 1; depth <= empties; depth++ {
		s.hitLeaf = false
		v, err := s.negamax(depth, 0, -Win-1, Win+1)
		if err != nil {
			break
		}
		e, move, ok := s.root()
		r := Report{Depth: depth, Score: v, Best: move, Nodes: s.nodes - before,
			Exact: v > Proven || v < -Proven || (!s.hitLeaf && !e.heur)}
		if !ok || !pos.Legal(r.Best) {
			r.Best = best.Best
		}
		best = r
		if report != nil {
			report(r)
		}
		if r.Exact {
			break
		}
	}
	return best.Best, best, nil
}

// Solve proves the value of pos for the side to move: 1 win, 0 draw, -1
// loss, searching every move to the end of the game (no branching limit).
// The best move is the fastest win or the slowest loss.
func (s *Searcher) Solve(ctx context.Context, pos *engine.Position) (int, engine.Move, error) {
	if pos.Result() != engine.Open {
		return 0, engine.NoMove, errors.New("the game is over")
	}
	s.reset(pos)
	s.setContext(ctx)
	s.solving = true
	defer func() { s.solving = false }()
	empties := s.rules.Cells() - pos.Ply()
	for depth := 1; ; depth++ {
		s.hitLeaf = false
		v, err := s.negamax(min(depth, empties), 0, -Win-1, Win+1)
		if err != nil {
			return 0, engine.NoMove, stopError(ctx)
		}
		// A proved value is the fastest win (slowest loss) only once the
		// search reaches its distance: shallower, the table may bring in a
		// slower win found by a deeper search of another root.
		proved := (v > Proven && int(Win-v) <= depth) || (v < -Proven && int(Win+v) <= depth)
		if proved || (!s.hitLeaf && depth >= empties) {
			_, m, _ := s.root()
			switch {
			case v > Proven:
				return 1, m, nil
			case v < -Proven:
				return -1, m, nil
			}
			return 0, m, nil
		}
	}
}

// Analyze returns the solved value (1, 0, -1, side to move's view) of each
// legal move, in increasing move order.
func (s *Searcher) Analyze(ctx context.Context, pos *engine.Position) ([]engine.Move, []int, error) {
	legal := pos.LegalMoves(nil)
	vals := make([]int, len(legal))
	q := pos.Clone()
	for i, m := range legal {
		q.Play(m)
		switch q.Result() {
		case engine.XWins, engine.OWins:
			vals[i] = 1
		case engine.Draw:
			vals[i] = 0
		default:
			v, _, err := s.Solve(ctx, q)
			if err != nil {
				return nil, nil, err
			}
			vals[i] = -v
		}
		q.Undo()
	}
	sort.SliceStable(legal, func(i, j int) bool { return legal[i] < legal[j] })
	return legal, vals, nil
}

// Deadline returns a context ending at d (or never, for zero d).
func Deadline(ctx context.Context, d time.Time) (context.Context, context.CancelFunc) {
	if d.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, d)
}

// Value proves pos and returns its raw search value for the side to move:
// Win−t when its winning stone is the t-th ply from now, −(Win−t) when the
// opponent's is, 0 for a draw.
func (s *Searcher) Value(ctx context.Context, pos *engine.Position) (int32, error) {
	if _, _, err := s.Solve(ctx, pos); err != nil {
		return 0, err
	}
	e, _, ok := s.root()
	if !ok || e.flag != flagExact {
		// Re-search with a full window to read the exact value.
		v, err := s.negamax(s.rules.Cells()-pos.Ply(), 0, -Win-1, Win+1)
		if err != nil {
			return 0, stopError(ctx)
		}
		return v, nil
	}
	return fromTT(e.value, 0), nil
}

// Score converts a proved value into the score of Connect-4 solvers' test
// files: for a win, floor((R·C+1)/2) + 1 minus the winner's stones when it
// wins (22 − stones on 6×7); negative for a loss; 0 for a draw. It is the
// scale of the bitboard solvers (bots/alphabeta/solver, wide).
func Score(pos *engine.Position, v int32) int {
	if v > -Proven && v < Proven {
		return 0
	}
	r := pos.Rules()
	top := (r.Cells()+1)/2 + 1
	own := pos.Ply() / 2 // the side to move's stones now
	if v > 0 {
		d := int(Win - 1 - v) // plies after the side to move's next move
		return top - (own + d/2 + 1)
	}
	t := int(Win + v) // the opponent's winning stone is the t-th ply from now (t even)
	oppStones := (pos.Ply()+1)/2 + t/2
	return -(top - oppStones)
}

// root returns the table's entry for the searcher's current position and
// its best move mapped back from the table's orientation.
func (s *Searcher) root() (ttEntry, engine.Move, bool) {
	key, k := s.symh.Least()
	e := s.tt[key&s.mask]
	if e.key != key {
		return e, engine.NoMove, false
	}
	return e, s.sym.Move(s.sym.Inverse(k), engine.Move(e.move)), true
}
