package solver

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"sync"
	"time"
)

// Invalid is the score Analyze gives to a full column.
const Invalid = math.MinInt32

// DefaultTTMiB is the table size used when New gets ttMiB <= 0.
const DefaultTTMiB = 64

// pollMask: the context (and the node budget) is checked every
// pollMask+1 nodes.
const pollMask = 4095

// stopSignal unwinds a search from deep recursion; it never leaves the
// package (see run).
type stopSignal struct{ err error }

var errBudget = errors.New("solver: node budget spent")

// Solver solves the positions of one board. It keeps its transposition
// tables from one call to the next (see Reset). A Solver is not safe for
// concurrent use; with SetThreads(n) it searches one position on n
// goroutines itself.
type Solver struct {
	g     geom
	far   table  // positions with more than nearDepth empty cells, shared
	w     worker // the main worker: every search runs on it
	ttMiB int
	// maxSlots is far's slot bits at its full size.
	maxSlots int
	threads  int
	// helperFrom is the node count from which helpers join a search
	// (helperNodes; tests lower it).
	helperFrom uint64
	helpers    []*worker // threads-1 helpers, made on first use
	par        parallel
	busy       busyTable
	nodes      uint64 // nodes of the last search, every worker's
	ctx        context.Context
	done       <-chan struct{} // ctx.Done() of the running search
}

// worker is one searcher: the main one (Solver.w) or a helper of a
// parallel search. Workers share the geometry and the large table; each
// has its own small table, which stays in its core's cache.
type worker struct {
	s     *Solver
	g     *geom
	far   *table
	near  table
	nodes uint64
	limit uint64 // node budget of the running search
	// nearFrom is the number of stones from which a position's entry
	// goes to near; below etcFrom stones, a node first looks up its
	// children (see etc).
	nearFrom, etcFrom int
	// Below symTo stones, a position's entry is stored under the
	// smaller of its key and its mirror image's, and a symmetric
	// position searches only the moves of its left half and centre
	// (see mirrorKey).
	symTo int
	// filled counts the positions stored in far since it last grew (see
	// poll).
	filled uint64
	// id is 0 for the main worker, 1.. for the helpers.
	id int
	// shared is set while other workers search the same root.
	shared bool
	// epoch is the number of the probe a helper searches (see help).
	epoch uint64
	// kids holds, for each number of stones (fewer than 64: a board has
	// at most 63 cells), what a node computed about its children (by
	// column): kept here, not on the stack, so that a node's frame stays
	// small and is not cleared at every call (912 bytes with both on the
	// stack, 392 without; Test_L1_R3's first 10 exact, one thread,
	// alternated runs: 14.0-15.1 s of CPU against 16.0-18.4 s before).
	kids [64][maxCols]child
	// moves holds, for each number of stones, a node's columns in the
	// order it searches them and their ordering keys.
	moves [64]struct{ cols, keys [maxCols]uint8 }
}

// New returns a solver for boards of rows x cols where k in a row wins,
// with a transposition table of about ttMiB MiB (DefaultTTMiB if ttMiB <= 0;
// large boards need at least 2^((rows+1)*cols-44) entries of 8 bytes, 8 MiB
// for 64-bit boards, and get them) for the positions far from the end of
// the game, and a small one (1 MiB on 6x7) for the others: see table.go.
// The board must fit in 64 bits with one sentinel row: (rows+1)*cols <=
// 64; k must lie in 2..max(rows, cols).
func New(rows, cols, k int, ttMiB int) (*Solver, error) {
	g, err := newGeom(rows, cols, k)
	if err != nil {
		return nil, err
	}
	if ttMiB <= 0 {
		ttMiB = DefaultTTMiB
	}
	keyBits := g.h * g.cols
	s := &Solver{g: *g, ttMiB: ttMiB, maxSlots: slotBits(keyBits, ttMiB), threads: 1, helperFrom: helperNodes}
	s.w = s.newWorker(0)
	s.par.wake = sync.NewCond(&s.par.mu)
	s.Reset()
	return s, nil
}

func (s *Solver) newWorker(id int) worker {
	return worker{s: s, g: &s.g, far: &s.far, nearFrom: s.g.cells - nearDepth, etcFrom: s.g.cells - etcDepth, symTo: s.g.cells - nearDepth, id: id}
}

// NewPosition returns the empty board.
func (s *Solver) NewPosition() Position { return Position{g: &s.g} }

// Nodes returns the number of positions searched by the last Solve or
// Analyze call, by every thread.
func (s *Solver) Nodes() uint64 { return s.nodes }

// Reset empties the transposition tables and shrinks the large one to its
// start size.
func (s *Solver) Reset() {
	keyBits := s.g.h * s.g.cols
	s.far.reset(keyBits, min(s.maxSlots, slotBits(keyBits, startMiB)))
	nearSlots := min(s.maxSlots, slotBits(keyBits, nearMiB))
	s.w.near.reset(keyBits, nearSlots)
	s.w.filled = 0
	for _, h := range s.helpers {
		h.near.reset(keyBits, nearSlots)
	}
}

// errGeometry is returned for a position of another board.
var errGeometry = errors.New("solver: position of another board")

func (s *Solver) check(p *Position) error {
	if p.g == nil || (p.g != &s.g && (p.g.rows != s.g.rows || p.g.cols != s.g.cols || p.g.k != s.g.k)) {
		return errGeometry
	}
	return nil
}

// start prepares a search: node count, context and budget.
func (s *Solver) start(ctx context.Context) {
	s.nodes = 0
	s.par.nodes = 0
	s.w.nodes = 0
	s.w.limit = math.MaxUint64
	s.ctx = ctx
	s.done = ctx.Done()
}

// finish ends a Solve or Analyze call: the node count of every worker.
func (s *Solver) finish() {
	s.nodes = s.w.nodes + s.par.nodes
}

// poll is called every pollMask+1 nodes.
func (w *worker) poll() {
	s := w.s
	if w.id != 0 {
		if s.par.stop.Load() {
			panic(stopSignal{errStopped})
		}
		if s.par.epoch.Load() != w.epoch {
			panic(stopSignal{errProbeChanged})
		}
		return
	}
	// Once the searches have stored growFill times as many positions in
	// far as it has entries, it grows by 4x, up to its limit. Nodes store
	// their entry by key after their children, so a table grown under them
	// is fine. It never grows while helpers search.
	if int(s.far.slots) < s.maxSlots && w.filled > uint64(len(s.far.e))*growFill && !s.par.running && s.timeToGrow() {
		s.far = s.far.grow(min(s.maxSlots, int(s.far.slots)+2))
		w.filled = 0
	}
	if w.nodes >= w.limit {
		panic(stopSignal{errBudget})
	}
	if s.done != nil {
		select {
		case <-s.done:
			panic(stopSignal{s.ctx.Err()})
		default:
		}
	}
	if s.par.running {
		if s.par.helped.Load() {
			panic(stopSignal{errProbeHelped})
		}
	} else if s.threads > 1 && s.par.active && w.nodes-s.par.from >= s.helperFrom {
		s.startHelpers()
	}
}

// growTime is the least time a search must have left for the large table
// to grow under it: moving every entry into a table 4x larger (up to 64
// MiB, faulted in as it is written) takes tens of milliseconds, which a
// move played at 100 ms cannot spare. Searches without a deadline always
// may.
const growTime = time.Second

// timeToGrow reports whether the running search has time for the large
// table to grow.
func (s *Solver) timeToGrow() bool {
	d, ok := s.ctx.Deadline()
	return !ok || time.Until(d) > growTime
}

// run calls f, turning a stop into an error. Entries stored before the
// stop remain valid: the table only ever holds proved bounds.
func run(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			st, ok := r.(stopSignal)
			if !ok {
				panic(r)
			}
			err = st.err
		}
	}()
	f()
	return nil
}

// terminal returns the score of a finished game (the side that just moved
// has k in a row, or the board is full) and true, or false.
func (g *geom) terminal(cur, mask uint64, n int) (int, bool) {
	if n > 0 && g.aligned(cur^mask) {
		return -g.scoreAt(n - 1), true
	}
	if n == g.cells {
		return 0, true
	}
	return 0, false
}

// Solve returns the exact score of p for the side to move (see the package
// documentation for the scale), or with weak only its sign: 1 win, 0 draw,
// -1 loss. A finished game gets its final score. It stops with ctx.Err()
// when ctx ends (checked every few thousand nodes).
func (s *Solver) Solve(ctx context.Context, p Position, weak bool) (score int, err error) {
	if err := s.check(&p); err != nil {
		return 0, err
	}
	s.start(ctx)
	defer s.finish()
	return s.search(rootCall{cur: p.cur, mask: p.mask, n: p.moves, weak: weak, lo: math.MinInt, hi: math.MaxInt})
}

// solve returns the score (its sign if weak) knowing it lies in [lo, hi].
func (w *worker) solve(cur, mask uint64, n int, weak bool, lo, hi int) int {
	g := w.g
	if v, ok := g.terminal(cur, mask, n); ok {
		return clampWeak(v, weak)
	}
	if g.canWinNow(cur, mask) {
		return clampWeak(g.scoreAt(n), weak)
	}
	if weak {
		// lo and hi bound the sign: a lower bound of 0 or 1 (an upper
		// bound of 0 or -1) bounds the score the same; -1 (1) says nothing.
		if lo < 0 {
			lo = math.MinInt
		}
		if hi > 0 {
			hi = math.MaxInt
		}
	}
	lo = max(lo, -g.scoreAt(n+1))
	hi = min(hi, g.scoreAt(n+2))
	return clampWeak(w.narrow(cur, mask, n, lo, hi, weak), weak)
}

func clampWeak(v int, weak bool) int {
	if weak {
		return min(max(v, -1), 1)
	}
	return v
}

// narrow finds the score in [lo, hi] by null-window searches, each halving
// the range (biased toward 0 first, where most scores lie, as Pons does).
// The side to move must not have a winning move. With weak it stops as
// soon as the sign is known and returns a value of that sign.
//
// Weak solving runs the same probes over the whole score range, not one
// probe at 0: a probe "score > t" for a large t only looks for wins within
// a few moves (the score bounds cut every longer line), so it is cheap,
// and a win found that way ends the search; the probes that fail leave
// the table the bounds and moves that make the next ones cheaper. A single
// probe at 0 has no depth limit at all: on Test_L1_R1 it took 3.3x the
// time of the exact solve before weak used the same probes (0.8x now).
//
// Near 0 (|t| < weakNear), while the range holds both signs, weak ends
// with one search of the window (-1, 1), which gives the sign. It costs
// less than the probes "> 0" and "> -1" it replaced (4453: 22 M nodes
// against 28 M; 4544: 59 M against 75 M), and from |t| < 5 on, less than
// the probes "> 4" and "> -4" before it too (nodes against |t| < 3:
// Test_L1_R3's first 10 lines 143 M against 170 M, 44 129 M against 135
// M, Test_L2_R1 260 against 290 a position, Test_L1_R1 the same; from
// |t| < 7 on, or at once, a win far off costs Test_L1_R1 1.2x or 6x the
// nodes). The exact search keeps its
// null-window probes from exactWindowTo+1 stones on: the window as its
// first step near 0 cost 9% more nodes on Test_L1_R3's first 10 lines
// (3 to 9 stones; +38% on 13712, score 3: the window proves a win the
// probes > 2 and > 3 did not need). With at most exactWindowTo stones,
// where scores lie near 0 and the probes "> -1" and "> 0" each cost a
// whole proof, exact starts near 0 with the window too: the empty board
// 830 M -> 738 M nodes, 44 214 M -> 184 M, 4 549 M -> 539 M.
func (w *worker) narrow(cur, mask uint64, n int, lo, hi int, weak bool) int {
	lo0, hi0 := lo, hi
	for lo < hi {
		if weak && (lo > 0 || hi < 0) {
			break
		}
		med := lo + (hi-lo)/2
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		if (weak || n <= exactWindowTo) && med > -weakNear && med < weakNear && lo < 0 && hi > 0 {
			// Near 0, one search of the window (-1, 1) tells the sign.
			r := w.probe(cur, mask, n, -1, 1)
			switch {
			case r >= 1:
				lo = min(r, hi0)
			case r <= -1:
				hi = max(r, lo0)
			default:
				return 0
			}
			continue
		}
		r := w.probe(cur, mask, n, med, med+1)
		if r <= med {
			hi = max(r, lo0)
		} else {
			lo = min(r, hi0)
		}
	}
	if hi < 0 {
		return hi
	}
	return lo
}

// etcDepth: nodes with more than etcDepth empty cells try an enhanced
// transposition cutoff (see etc) before searching any child. Measured in
// one run each (cpu time, nodes), on the first 2 positions of Test_L1_R1
// analyzed: 9.5-9.7 s and 233 M nodes without it, 8.1-8.2 s and 182 M
// with it above 12 empty cells, 8.0-8.1 s and 166 M above 6; on
// Test_L2_R1 analyzed: 0.46-0.47 s and 10.2 M above 12, 0.49 s and 9.3 M
// above 6, 0.48-0.49 s and 9.2 M above 2. Deeper, the probes cost about
// what the nodes they save do. (Done at every node with one 64 MiB table,
// a probe per child was a cache miss and cost more than it saved: see
// docs/PERFORMANCE.md.)
const etcDepth = 10

// Mirror images (worker.symTo): the positions of the large table, those
// with more than nearDepth empty cells, are stored under the smaller of
// their key and their mirror image's. Mirror images meet often in a search
// from an opening whose first moves are near the centre: "44" weak took
// 239 M nodes without, 191 M with mirrors below 8 stones, 175 M below 12,
// 166 M below 16, 154 M below 24 (the large table's positions) and 153 M
// everywhere, where the mirror costs more time than it saves (16% more
// CPU time than below 24 in the same run). On Test_L1_R3's first lines,
// whose positions are far from symmetric, it saves 0.8% of the nodes at
// the same time.

// weakNear and exactWindowTo: see narrow.
const (
	weakNear      = 5
	exactWindowTo = 2
)

// etc is the enhanced transposition cutoff: it looks up every child
// (opp to move, mask, with a stone added from next; n stones) and returns
// a value >= b with its column when a child's upper bound proves it, or
// column -1.
func (w *worker) etc(opp, mask, next uint64, n, b int) (int, int) {
	g := w.g
	t := &w.near
	if n < w.nearFrom {
		t = w.far
	}
	for c := 0; c < g.cols; c++ {
		mv := next & g.colMask[c]
		if mv == 0 {
			continue
		}
		key := opp + (mask | mv)
		if n < w.symTo {
			key = min(key, g.mirrorKey(key))
		}
		idx, tag := t.slot(key)
		if e := t.load(idx); e != 0 && e>>20 == tag {
			if v := -(int(e>>7&127) - 64); v >= b {
				return v, c
			}
		}
	}
	return 0, -1
}

// negamax returns a fail-soft alpha-beta value of the position (cur, mask)
// with n stones, whose side to move has no winning move: v <= alpha means
// score <= v, v >= beta means score >= v, otherwise v is the score.
func (w *worker) negamax(cur, mask uint64, n, alpha, beta int) int {
	return w.node(cur, mask, n, alpha, beta, child{oppWin: w.g.winCells(cur^mask, mask), hi: parityUnknown})
}

// child is what a parent computed about a child while ordering its moves:
// the empty cells where the side not to move would complete k in a row,
// and the child's parityHi when it was computed with alpha >= -1 (which
// makes it the position's alone), else parityUnknown.
type child struct {
	oppWin uint64
	hi     int
}

// parityUnknown: the parent did not compute the child's parityHi.
const parityUnknown = math.MinInt32

// node is negamax given what its parent knows of it (see child).
func (w *worker) node(cur, mask uint64, n, alpha, beta int, kid child) int {
	oppWin := kid.oppWin
	w.nodes++
	if w.nodes&pollMask == 0 {
		w.poll()
	}
	g := w.g
	// The table entry is loaded first: its likely cache miss then overlaps
	// the threat computations below.
	t := &w.near
	far := n < w.nearFrom
	if far {
		t = w.far
	}
	key := cur + mask
	// flip: the entry is the mirror image's (its column mirrored); sym:
	// the position is its own mirror image.
	flip, sym := false, false
	if n < w.symTo {
		m := g.mirrorKey(key)
		flip, sym = m < key, m == key
		key = min(key, m)
	}
	idx, tag := t.slot(key)
	e := t.load(idx)
	tops := (mask + g.bottom) & g.board // the next cell of every open column
	possible := tops
	opp := cur ^ mask
	forced := possible & oppWin
	if forced != 0 {
		if forced&(forced-1) != 0 {
			return -g.scoreAt(n + 1)
		}
		possible = forced
	}
	next := possible &^ (oppWin >> 1)
	if next == 0 {
		return -g.scoreAt(n + 1)
	}
	if sym {
		// A move and its mirror image score the same; next is
		// symmetric, so its left half and centre are not empty.
		next &= g.leftHalf
	}
	if n >= g.cells-2 {
		return 0
	}
	lo := -g.scoreAt(n + 3)
	hi := g.scoreAt(n + 2)
	if lo >= beta {
		return lo
	}
	if hi <= alpha {
		return hi
	}
	if far {
		w.filled++
	}
	ttCol := -1
	if e != 0 && e>>20 == tag {
		lo = max(lo, int(e&127)-64)
		hi = min(hi, int(e>>7&127)-64)
		ttCol = int(e>>14&63) - 1
		if flip && ttCol >= 0 {
			ttCol = g.cols - 1 - ttCol
		}
		if lo >= beta || lo >= hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
	}
	// The parity strategies (parity.go) bound the score, after the table
	// (whose cutoffs spare computing them).
	phi := kid.hi
	if phi == parityUnknown {
		phi = g.parityHi(cur, opp, mask, tops, oppWin, alpha)
	}
	lo, hi = max(lo, g.parityLo(cur, opp, mask, tops, beta)), min(hi, phi)
	if lo >= beta || lo >= hi {
		return lo
	}
	if hi <= alpha {
		return hi
	}
	a := max(alpha, lo)
	b := min(beta, hi)
	a0 := a
	if n < w.etcFrom {
		if v, c := w.etc(opp, mask, next, n+1, b); c >= 0 {
			if flip {
				c = g.cols - 1 - c
			}
			t.store(idx, packEntry(tag, c, v, hi), far)
			return v
		}
	}

	// Order: table move first, then by the number of winning cells the
	// move creates, ties centre first.
	ord := &w.moves[n&63]
	cols, keys := &ord.cols, &ord.keys
	kids := &w.kids[n&63] // by column
	cnt := 0
	if next&(next-1) == 0 {
		for c := 0; c < g.cols; c++ {
			if next&g.colMask[c] != 0 {
				cols[0] = uint8(c)
				kids[c&(maxCols-1)] = child{oppWin: g.winCells(cur|next, mask|next), hi: parityUnknown}
				break
			}
		}
		cnt = 1
	} else {
		// Keys: the count of winning cells (at most 63), 255 for the
		// table's move. A child whose parity bound proves it lost for
		// the opponent (score <= -b for it) cuts at once, before any
		// child is searched: a static enhanced transposition cutoff (44
		// weak 50 M -> 30 M nodes; Test_L1_R3's first 10 exact 137 M ->
		// 115 M).
		for i := 0; i < g.cols; i++ {
			c := g.order[i]
			mv := next & g.colMask[c&(maxCols-1)]
			if mv == 0 {
				continue
			}
			wc := g.winCells(cur|mv, mask|mv)
			cm := mask | mv
			phi := g.parityHi(opp, cur|mv, cm, (cm+g.bottom)&g.board, wc, -b)
			if -phi >= b {
				if flip {
					c = uint8(g.cols - 1 - int(c))
				}
				t.store(idx, packEntry(tag, int(c), -phi, hi), far)
				return -phi
			}
			if b > 1 {
				phi = parityUnknown // case 1 was not computed
			}
			kids[c&(maxCols-1)] = child{oppWin: wc, hi: phi}
			sc := uint8(255)
			if int(c) != ttCol {
				sc = uint8(bits.OnesCount64(wc))
			}
			j := cnt
			for j > 0 && keys[(j-1)&(maxCols-1)] < sc {
				keys[j&(maxCols-1)] = keys[(j-1)&(maxCols-1)]
				cols[j&(maxCols-1)] = cols[(j-1)&(maxCols-1)]
				j--
			}
			keys[j&(maxCols-1)] = sc
			cols[j&(maxCols-1)] = c
			cnt++
		}
	}

	var best, bestCol int
	if far && w.shared {
		best, bestCol = w.sharedMoves(cur, mask, next, n, a, b, *cols, cnt, kids)
	} else {
		best, bestCol = math.MinInt, -1
		for i := 0; i < cnt; i++ {
			c := cols[i&(maxCols-1)]
			mv := next & g.colMask[c&(maxCols-1)]
			var v int
			if i == 0 || b == a+1 {
				v = -w.node(opp, mask|mv, n+1, -b, -a, kids[c&(maxCols-1)])
			} else {
				v = -w.node(opp, mask|mv, n+1, -a-1, -a, kids[c&(maxCols-1)])
				if v > a && v < b {
					v = -w.node(opp, mask|mv, n+1, -b, -a, kids[c&(maxCols-1)])
				}
			}
			if v > best {
				best = v
				bestCol = int(c)
			}
			if v >= b {
				break
			}
			if v > a {
				a = v
			}
		}
	}
	switch {
	case best >= b:
		lo = best
	case best <= a0:
		hi = best
		bestCol = ttCol
	default:
		lo, hi = best, best
	}
	if flip && bestCol >= 0 {
		bestCol = g.cols - 1 - bestCol
	}
	idx, tag = t.slot(key) // the table may have grown meanwhile
	t.store(idx, packEntry(tag, bestCol, lo, hi), far)
	return best
}

// sharedMoves is negamax's loop over the moves cols[:cnt] at a far node of
// a parallel search: the node is marked busy while this worker searches
// it, and the moves after the first that another worker is searching wait
// until the others are done (see busy.go). It returns the best value and
// its column.
func (w *worker) sharedMoves(cur, mask, next uint64, n, a, b int, cols [maxCols]uint8, cnt int, kids *[maxCols]child) (best, bestCol int) {
	g := w.g
	opp := cur ^ mask
	best, bestCol = math.MinInt, -1
	var later [maxCols]uint8
	nLater := 0
	w.s.busy.enter(cur + mask)
	defer w.s.busy.leave(cur + mask)
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < cnt; i++ {
			c := cols[i&(maxCols-1)]
			mv := next & g.colMask[c&(maxCols-1)]
			if pass == 0 && i > 0 && n+1 < w.nearFrom && w.s.busy.has(opp+(mask|mv)) {
				later[nLater&(maxCols-1)] = c
				nLater++
				continue
			}
			var v int
			if (i == 0 && pass == 0) || b == a+1 {
				v = -w.node(opp, mask|mv, n+1, -b, -a, kids[c&(maxCols-1)])
			} else {
				v = -w.node(opp, mask|mv, n+1, -a-1, -a, kids[c&(maxCols-1)])
				if v > a && v < b {
					v = -w.node(opp, mask|mv, n+1, -b, -a, kids[c&(maxCols-1)])
				}
			}
			if v > best {
				best, bestCol = v, int(c)
			}
			if v >= b {
				return best, bestCol
			}
			a = max(a, v)
		}
		if nLater == 0 {
			break
		}
		cols, cnt, nLater = later, nLater, 0
	}
	return best, bestCol
}
