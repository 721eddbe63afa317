package pns

import (
	"context"
	"time"
)

// Memory: the table is collected when it reaches its load limit in a
// search, and when the root changes. A collection marks the entries
// reachable from the root (both goals of the attacker) through expanded,
// undecided nodes: the subtrees of proved and disproved nodes are released
// (the decided node keeps its value, depth and best move), and so are the
// nodes not reachable from a new root. When the reachable tree itself
// fills most of the table, the search degrades: the tree is cut below the
// depth that keeps about half the table, the nodes at that depth becoming
// leaves again with their numbers.

// collect frees room in the table (the path goes back to the root); false
// when it could not free enough (or ran out of time).
func (s *Searcher) collect(ctx context.Context) bool {
	s.unwind(1)
	if s.total == s.lastGC {
		return false // nothing expanded since the last one: the tree fills the table
	}
	s.lastGC = s.total
	if !s.markAll(ctx, -1) {
		return false
	}
	s.stats.GCs++
	if !s.sweepMarked(ctx) {
		return s.tab.live <= s.tab.limit()*3/4 // out of time: whatever was freed
	}
	if s.tab.live <= s.tab.limit()*5/8 {
		return true
	}
	// Cut: the deepest depth whose tree fits half the table (at least the
	// root's children).
	keep, cut := 0, 1
	for d, n := range s.hist {
		keep += n
		if keep > s.tab.limit()/2 {
			break
		}
		cut = max(d, 1)
	}
	if !s.markAll(ctx, cut) {
		return false
	}
	s.sweepMarked(ctx)
	s.stats.Collapsed++
	return s.tab.live <= s.tab.limit()*3/4
}

// sweepMarked frees the entries the last mark pass did not reach, shard by
// shard until ctx ends (the shards left keep theirs: they are garbage the
// next collection frees); false when it stopped early.
func (s *Searcher) sweepMarked(ctx context.Context) bool {
	epoch := s.epoch
	return s.tab.sweep(func(e *entry) bool { return e.mark == epoch }, timeUp(ctx))
}

// timeUp returns a check of ctx and of its deadline on the clock.
func timeUp(ctx context.Context) func() bool {
	deadline, hasDeadline := ctx.Deadline()
	return func() bool {
		return ctx.Err() != nil || hasDeadline && !time.Now().Before(deadline)
	}
}

// markAll marks the entries reachable from the root, the path being at the
// root, cutting (collapsing) expanded nodes at depth cut when cut >= 0. It
// fills s.marked and s.hist; false when ctx ended first.
func (s *Searcher) markAll(ctx context.Context, cut int) bool {
	s.epoch++
	if s.epoch == 0 {
		for _, sh := range s.tab.shards {
			for i := range s.tab.slots[sh.base : sh.base+int(sh.n)] {
				s.tab.slots[sh.base+i].mark = 0
			}
		}
		s.epoch = 1
	}
	s.marked, s.abort = 0, false
	clear(s.hist)
	check := timeUp(ctx)
	for g := Win; g <= NotLose; g++ {
		if s.used[g][s.attacker&1] {
			s.markFrom(saltOf(g, s.attacker), s.root, 0, cut, check)
		}
	}
	return !s.abort
}

// markFrom marks the node h (position hash) at depth d and, if it is
// expanded and undecided (or the root), its children.
func (s *Searcher) markFrom(salt, h uint64, d, cut int, check func() bool) {
	if s.abort {
		return
	}
	e := s.tab.find(h ^ salt)
	if e == nil || e.mark == s.epoch {
		return
	}
	e.mark = s.epoch
	s.marked++
	for len(s.hist) <= d {
		s.hist = append(s.hist, 0)
	}
	s.hist[d]++
	if s.marked&4095 == 0 && check() {
		s.abort = true
		return
	}
	if e.flags&fExpanded == 0 {
		return
	}
	decided := e.pn == 0 || e.dn == 0
	if d > 0 && decided {
		return // a proved subtree: released
	}
	if d == cut {
		if !decided {
			e.flags &^= fExpanded // a leaf again, with its numbers
		}
		return
	}
	for _, m := range s.children(d, e) {
		ch := s.childKey(m)
		s.play(m)
		s.markFrom(salt, ch, d+1, cut, check)
		s.undo()
	}
}
