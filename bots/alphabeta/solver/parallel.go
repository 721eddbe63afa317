package solver

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Parallel search (SetThreads). A search runs on the main worker alone
// until it has taken helperNodes nodes; then threads-1 helpers join it,
// each with its own small table, all sharing the large one. The main
// worker drives the probes of narrow; every helper searches the probe the
// main worker is on, and the first worker to finish a probe gives its
// value (see parallel). The large table only ever holds bounds proved for
// the position its entry names (see table.go), whichever worker wrote them
// and in whatever order, so every value is exact. Every worker first tries
// the moves no other worker is searching (see busy.go), so that they prove
// different subtrees and share the results through the table.

// helperNodes is the size a search reaches on the main worker alone
// before helpers join it (Solver.helperFrom): smaller searches (up to a
// few tens of milliseconds) finish before helpers would pay for their
// start and their stop. A helper must be scheduled to start, and to see
// the stop at its next poll, before the search returns: on a loaded
// machine each can wait for a time slice, and with helpers joining from
// 32K nodes on, the 1000 positions of Test_L1_R1 took 13.8 s instead of
// 2.6 s with one thread (load 26 on 2 cores).
const helperNodes = 1 << 20

// errStopped stops a helper once the search is over.
var errStopped = errors.New("solver: the search is over")

// errProbeChanged stops a helper's probe once the main worker moved on to
// another; errProbeHelped stops the main worker's probe once a helper
// finished it.
var (
	errProbeChanged = errors.New("solver: the main worker moved on to another probe")
	errProbeHelped  = errors.New("solver: a helper finished the probe")
)

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

// probe is one null-window (or weak's (-1, 1)) search of narrow: the
// position, the window and its number.
type probe struct {
	cur, mask uint64
	n, a, b   int
	epoch     uint64
}

// parallel is the state of the running search shared with the helpers.
// The main worker drives the search: each probe of narrow is published
// (publish), and the helpers search the same probe; the first worker to
// finish it gives its value, and all go on to the next one. Searching the
// same window, the workers share the large table's bounds and split the
// far nodes' moves (busy.go); before, each helper ran the whole sequence
// of probes on its own and was often on another probe than the main
// worker (Test_L1_R3's first line: 40% more nodes in all, 1.3x fewer on
// the main worker).
type parallel struct {
	active  bool   // a search is running (the main worker may start helpers)
	from    uint64 // the main worker's node count when the search began
	running bool   // helpers are searching (main worker's view)
	stop    atomic.Bool
	wg      sync.WaitGroup
	epoch   atomic.Uint64 // the running probe's epoch
	helped  atomic.Bool   // a helper finished the running probe (result in v)
	mu      sync.Mutex
	wake    *sync.Cond // on mu: a new probe, or the end
	cur     probe      // the running probe (mu)
	over    bool       // the search is over (mu)
	v       int        // a helper's value of the running probe (mu)
	nodes   uint64
	joined  uint64 // searches the helpers joined, since New
}

// SetThreads sets the number of threads (goroutines) that search one
// position, 1 or more; values below 1 mean 1. Helpers start only on
// searches that take more than a few milliseconds.
func (s *Solver) SetThreads(n int) { s.threads = max(n, 1) }

// Threads returns the number of threads a search may use.
func (s *Solver) Threads() int { return s.threads }

// search solves rc on the main worker, with the helpers once it is large
// enough.
func (s *Solver) search(rc rootCall) (int, error) {
	p := &s.par
	p.active = true
	p.from = s.w.nodes
	p.over = false
	p.stop.Store(false)
	p.helped.Store(false)
	var v int
	err := run(func() { v = s.w.solveRoot(&rc) })
	p.active = false
	if !p.running {
		return v, err
	}
	p.mu.Lock()
	p.over = true
	p.wake.Broadcast()
	p.mu.Unlock()
	p.stop.Store(true)
	p.wg.Wait()
	p.running = false
	s.w.shared = false
	for _, h := range s.helpers[:s.threads-1] {
		p.nodes += h.nodes
	}
	return v, err
}

// probe runs the null-window search (a, b) of narrow on the main worker,
// and publishes it to the helpers of a parallel search; it returns the
// first value found.
func (w *worker) probe(cur, mask uint64, n, a, b int) int {
	s := w.s
	if w.id != 0 || s.threads < 2 {
		return w.negamax(cur, mask, n, a, b)
	}
	p := &s.par
	p.mu.Lock()
	p.cur = probe{cur: cur, mask: mask, n: n, a: a, b: b, epoch: p.cur.epoch + 1}
	p.epoch.Store(p.cur.epoch)
	p.helped.Store(false)
	p.wake.Broadcast()
	p.mu.Unlock()
	var v int
	err := run(func() { v = w.negamax(cur, mask, n, a, b) })
	if errors.Is(err, errProbeHelped) {
		p.mu.Lock()
		v = p.v
		p.mu.Unlock()
		return v
	}
	if err != nil {
		panic(stopSignal{err})
	}
	return v
}

// help is a helper's loop: it searches each probe the main worker
// publishes until the search is over.
func (h *worker) help() {
	s := h.s
	p := &s.par
	var done uint64 // the last probe this helper searched
	for {
		p.mu.Lock()
		for !p.over && p.cur.epoch == done {
			p.wake.Wait()
		}
		if p.over {
			p.mu.Unlock()
			return
		}
		pr := p.cur
		p.mu.Unlock()
		h.epoch = pr.epoch
		done = pr.epoch
		var v int
		err := run(func() { v = h.negamax(pr.cur, pr.mask, pr.n, pr.a, pr.b) })
		switch {
		case err == nil:
			p.mu.Lock()
			if p.cur.epoch == pr.epoch && !p.helped.Load() {
				p.v = v
				p.helped.Store(true)
			}
			p.mu.Unlock()
		case errors.Is(err, errProbeChanged):
		default:
			return // the search is over, or its budget spent
		}
	}
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
			h.help()
		}(h)
	}
}
