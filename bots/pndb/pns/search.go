package pns

import (
	"context"
	"fmt"
	"time"

	"github.com/kinrow/kinrow/engine"
)

// Prove searches pos (which must be open) for goal, the attacker being the
// side to move. It returns Unknown, with Stats().Stopped set, when ctx ends,
// the table is full or the expansion budget is spent. Nodes found by
// earlier calls are reused; when pos is a new root, those not reachable
// from it may be dropped.
func (s *Searcher) Prove(ctx context.Context, pos *engine.Position, goal Goal) (Outcome, error) {
	if pos.Rules() != s.rules {
		return Unknown, fmt.Errorf("pns: position of %s, searcher of %s", pos.Rules(), s.rules)
	}
	if pos.Result() != engine.Open {
		return Unknown, fmt.Errorf("pns: %w", engine.ErrGameOver)
	}
	s.stats.Expanded, s.stats.Stopped = 0, nil
	s.stats.DBSearches, s.stats.DBWins, s.stats.DBThreats = 0, 0, 0
	s.goal = goal
	s.setRoot(ctx, pos)
	s.salt, s.other = saltOf(goal, s.attacker), saltOf(goal^1, s.attacker)
	s.used[goal][s.attacker&1] = true
	root := s.root
	if !s.ensureRoot(ctx) {
		s.stats.Stopped = ErrMemory
		return Unknown, nil
	}
	// The deadline is read from the clock as well as from ctx: under load
	// the timer behind ctx may fire late.
	deadline, hasDeadline := ctx.Deadline()
	for iter := 0; ; iter++ {
		e := s.tab.find(root ^ s.salt)
		if e == nil {
			if !s.ensureRoot(ctx) {
				s.stats.Stopped = ErrMemory
				return Unknown, nil
			}
			continue
		}
		if e.pn == 0 {
			return Proved, nil
		}
		if e.dn == 0 {
			return Disproved, nil
		}
		if s.work >= checkWork || iter&255 == 0 {
			s.work = 0
			if ctx.Err() != nil || hasDeadline && !time.Now().Before(deadline) {
				s.stats.Stopped = context.DeadlineExceeded
				if ctx.Err() != nil {
					s.stats.Stopped = ctx.Err()
				}
				return Unknown, nil
			}
		}
		if s.opt.MaxExpansions > 0 && s.stats.Expanded >= s.opt.MaxExpansions {
			s.stats.Stopped = ErrBudget
			return Unknown, nil
		}
		// Descend from the current node to the most-proving node.
		var top *entry
		for {
			h := s.path[len(s.path)-1].hash
			top = s.tab.find(h ^ s.salt)
			if top == nil {
				// Dropped by a collection: it is a leaf again.
				if top, _ = s.tab.insert(h ^ s.salt); top == nil {
					break
				}
				top.pn, top.dn = 1, 1
			}
			if top.flags&fExpanded == 0 || top.pn == 0 || top.dn == 0 {
				break // a leaf, or decided since (reached through another path)
			}
			m := s.sym.dec(top.best)
			s.play(m)
			s.path = append(s.path, step{hash: s.sym.key(), move: m})
		}
		if top != nil && (top.flags&fExpanded != 0 || top.pn == 0 || top.dn == 0) {
			// Decided already: only the ancestors need updating.
		} else if top == nil || !s.expand(ctx, top) {
			s.unwind(1)
			if !s.collect(ctx) {
				s.stats.Stopped = ErrMemory
				return Unknown, nil
			}
			continue
		}
		s.update()
	}
}

// ensureRoot makes sure the root has an entry, collecting if needed.
func (s *Searcher) ensureRoot(ctx context.Context) bool {
	for try := 0; try < 2; try++ {
		e, created := s.tab.insert(s.root ^ s.salt)
		if e != nil {
			if created {
				e.pn, e.dn = 1, 1
				s.inherit(e, s.root)
			}
			return true
		}
		if !s.collect(ctx) {
			return false
		}
	}
	return false
}

// update recomputes the ancestors along the path, bottom up, and stops at
// the first node whose numbers hold; the path ends there.
func (s *Searcher) update() {
	for len(s.path) > 1 {
		s.unwind(len(s.path) - 1)
		h := s.path[len(s.path)-1].hash
		e := s.tab.find(h ^ s.salt)
		if e == nil {
			continue // dropped by a collection: its parent gets the news
		}
		pn, dn, depth, best := s.combine(e)
		unchanged := pn == e.pn && dn == e.dn && depth == e.depth
		e.pn, e.dn, e.depth, e.best = pn, dn, depth, best
		if unchanged {
			break
		}
	}
}

// setRoot makes pos the root. A new root (another position than the last
// one) collects the table from it: entries not reachable are dropped once
// the table is a quarter full, and Stats.Reused counts those that are.
func (s *Searcher) setRoot(ctx context.Context, pos *engine.Position) {
	if s.rooted && pos.Hash() == s.rootHash {
		s.unwind(1)
		return
	}
	s.pos = pos.Clone()
	s.sym.set(s.pos)
	s.attacker, s.root, s.rootHash, s.rooted = pos.ToMove(), s.sym.key(), pos.Hash(), true
	s.path = append(s.path[:0], step{hash: s.root, move: engine.NoMove})
	if !s.all {
		if len(s.near) != s.rules.Cells() {
			s.near = make([]int16, s.rules.Cells())
		} else {
			clear(s.near)
		}
		for _, m := range pos.Moves(nil) {
			s.touch(int(m), 1)
		}
	}
	s.stats.Reused, s.stats.GCs, s.stats.Collapsed = 0, 0, 0
	if s.tab.live == 0 {
		return
	}
	if !s.markAll(ctx, -1) {
		return
	}
	s.stats.Reused = s.marked
	if s.tab.live > s.tab.limit()/4 {
		s.sweepMarked(ctx)
		s.stats.GCs++
	}
}

// touch adds d to the near count of the cells within distance 2 of cell.
func (s *Searcher) touch(cell int, d int16) {
	cols, rows := s.rules.Cols, s.rules.Rows
	r0, c0 := cell/cols, cell%cols
	for r := max(0, r0-2); r <= min(rows-1, r0+2); r++ {
		for c := max(0, c0-2); c <= min(cols-1, c0+2); c++ {
			s.near[r*cols+c] += d
		}
	}
}

func (s *Searcher) play(m engine.Move) {
	cell := s.pos.Cell(m)
	if !s.all {
		s.touch(cell, 1)
	}
	s.sym.toggle(cell, s.pos.ToMove())
	s.pos.Play(m)
}

func (s *Searcher) undo() {
	m, _ := s.pos.Undo()
	s.sym.toggle(s.pos.Cell(m), s.pos.ToMove())
	if !s.all {
		s.touch(int(m), -1) // m,n,k: the move is the cell
	}
}

// unwind undoes moves until the path has n nodes.
func (s *Searcher) unwind(n int) {
	for len(s.path) > n {
		s.undo()
		s.path = s.path[:len(s.path)-1]
	}
}

// bufAt returns the candidate buffer of depth d.
func (s *Searcher) bufAt(d int) []engine.Move {
	for len(s.moves) <= d {
		s.moves = append(s.moves, nil)
	}
	return s.moves[d][:0]
}

// children returns the child moves of an expanded node at depth d (the
// buffer is kept for reuse).
func (s *Searcher) children(d int, e *entry) []engine.Move {
	dst := s.bufAt(d)
	if e.forced >= 0 {
		dst = append(dst, s.sym.dec(e.forced))
	} else {
		dst = s.candidates(dst)
	}
	s.moves[d] = dst
	return dst
}

// candidates appends the candidate moves of the working position to dst.
func (s *Searcher) candidates(dst []engine.Move) []engine.Move {
	dst, s.played = candidates(s.pos, s.near, dst, s.played)
	return dst
}

// childKey is the canonical key of the working position after the side
// to move plays m.
func (s *Searcher) childKey(m engine.Move) uint64 {
	return s.sym.child(s.pos.Cell(m), s.pos.ToMove())
}

// orNode tells whether the attacker moves at the working position.
func (s *Searcher) orNode() bool { return s.pos.ToMove() == s.attacker }

// combine computes the numbers of the expanded node h from its children,
// and its most-proving child: at an OR node the child of least proof
// number, at an AND node the child of least disproof number (ties: the
// larger other number). A decided node gets the depth of its best leaf and
// its best move: the side to move wins by the fastest of its winning
// children and loses by the slowest child. best is in the canonical frame
// (see sym.go), ready to store.
func (s *Searcher) combine(e *entry) (pn, dn uint32, depth uint16, best int16) {
	moves := s.children(len(s.path), e)
	s.work += len(moves)
	minV, minW, sum := Inf+1, uint32(0), uint32(0)
	or := s.orNode()
	best = -1
	winD, winM := uint16(0xffff), int16(-1) // fastest child won by the mover
	loseD, loseM := uint16(0), int16(-1)    // slowest child
	for _, m := range moves {
		var v, w uint32 = 1, 1
		var cd uint16
		if c := s.tab.find(s.childKey(m) ^ s.salt); c != nil {
			v, w, cd = c.dn, c.pn, c.depth
			if or {
				v, w = c.pn, c.dn
			}
		}
		if v < minV || (v == minV && w > minW) {
			minV, minW, best = v, w, int16(m)
		}
		if v == 0 && cd < winD {
			winD, winM = cd, int16(m)
		}
		if cd >= loseD {
			loseD, loseM = cd, int16(m)
		}
		sum = addSat(sum, w)
	}
	minV = min(minV, Inf)
	switch {
	case minV == 0:
		depth, best = winD+1, winM
	case sum == 0:
		depth, best = loseD+1, loseM
	}
	best = s.sym.enc(engine.Move(best))
	if or {
		return minV, sum, depth, best
	}
	return sum, minV, depth, best
}

func addSat(a, b uint32) uint32 {
	if a >= Inf || b >= Inf {
		return Inf
	}
	return min(a+b, Inf-1)
}
