package solver

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Parallel search (SetThreads). A search runs on the main worker alone
// until it has taken helperNodes nodes; then threads-1 helpers start on the
// same root, each with its own small table, all sharing the large one
// (lazy SMP: the first worker to finish gives the score and stops the
// others). The large table only ever holds bounds proved for the position
// its entry names (see table.go), whichever worker wrote them and in
// whatever order, so every worker's answer is the exact score. Every worker first tries the moves no other
// worker is searching (see busy.go), so that they prove different subtrees
// and share the results through the table.

// helperNodes is the size a search reaches on the main worker alone
// before helpers join it (Solver.helperFrom): smaller searches (up to a
// few tens of milliseconds) finish before helpers would pay for their
// start and their stop. A helper must be scheduled to start, and to see
// the stop at its next poll, before the search returns: on a loaded
// machine each can wait for a time slice, and with helpers joining from
// 32K nodes on, the 1000 positions of Test_L1_R1 took 13.8 s instead of
// 2.6 s with one thread (load 26 on 2 cores).
const helperNodes = 1 << 20

// errStopped stops a worker once another finished the search.
var errStopped = errors.New("solver: another thread finished the search")

// rootCall is the root of one search: w.solve's arguments; neg negates
// the result (a child's score seen from its parent).
type rootCall struct {
	cur, mask uint64
	n         int
	weak      bool
	lo, hi    int
	neg       bool
}

func (w *worker) solveRoot(rc *rootCall) int {
	v := w.solve(rc.cur, rc.mask, rc.n, rc.weak, rc.lo, rc.hi)
	if rc.neg {
		return -v
	}
	return v
}

// parallel is the state of the running search shared with the helpers.
type parallel struct {
	root    rootCall
	active  bool   // a search is running (the main worker may start helpers)
	from    uint64 // the main worker's node count when the search began
	running bool   // helpers are searching (main worker's view)
	stop    atomic.Bool
	wg      sync.WaitGroup
	mu      sync.Mutex
	found   bool // a helper finished (mu)
	v       int  // its score (mu)
	nodes   uint64
	joined  uint64 // searches the helpers joined, since New
}

// SetThreads sets the number of threads (goroutines) that search one
// position, 1 or more; values below 1 mean 1. Helpers start only on
// searches that take more than a few milliseconds.
func (s *Solver) SetThreads(n int) { s.threads = max(n, 1) }

// Threads returns the number of threads a search may use.
func (s *Solver) Threads() int { return s.threads }

// search solves rc on the main worker and, once it is large enough, on
// the helpers too; it returns the first score found.
func (s *Solver) search(rc rootCall) (int, error) {
	p := &s.par
	p.root = rc
	p.active = true
	p.from = s.w.nodes
	p.found = false
	p.stop.Store(false)
	var v int
	err := run(func() { v = s.w.solveRoot(&p.root) })
	p.active = false
	if !p.running {
		return v, err
	}
	p.stop.Store(true)
	p.wg.Wait()
	p.running = false
	s.w.shared = false
	for _, h := range s.helpers[:s.threads-1] {
		p.nodes += h.nodes
	}
	if errors.Is(err, errStopped) {
		if !p.found {
			panic("solver: a search stopped with no result")
		}
		return p.v, nil
	}
	return v, err
}

// startHelpers is called by the main worker's poll once its search is
// large enough. The large table first takes its full size: it cannot grow
// while several workers use it.
func (s *Solver) startHelpers() {
	if !s.timeToGrow() {
		return // a move in play with little time: one thread
	}
	if int(s.far.slots) < s.maxSlots {
		s.far = s.far.grow(s.maxSlots)
		s.w.filled = 0
	}
	keyBits := s.g.h * s.g.cols
	for len(s.helpers) < s.threads-1 {
		h := s.newWorker(len(s.helpers) + 1)
		h.near.reset(keyBits, min(s.maxSlots, slotBits(keyBits, nearMiB)))
		s.helpers = append(s.helpers, &h)
	}
	p := &s.par
	p.running = true
	p.joined++
	s.busy.clear()
	s.w.shared = true
	for _, h := range s.helpers[:s.threads-1] {
		h.shared = true
		h.nodes = 0
		h.limit = s.w.limit
		p.wg.Add(1)
		go func(h *worker) {
			defer p.wg.Done()
			var v int
			if run(func() { v = h.solveRoot(&p.root) }) != nil {
				return
			}
			p.mu.Lock()
			if !p.found {
				p.found, p.v = true, v
			}
			p.mu.Unlock()
			p.stop.Store(true)
		}(h)
	}
}
