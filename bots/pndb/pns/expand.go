package pns

import (
	"context"

	"github.com/kinrow/kinrow/engine"
)

// terminal returns the numbers of a decided node won by w (engine.Empty: drawn).
func (s *Searcher) terminal(w engine.Color) (pn, dn uint32) {
	if w == s.attacker || (w == engine.Empty && s.goal == NotLose) {
		return 0, Inf
	}
	return Inf, 0
}

// decide marks e, the node at the end of the path, decided for winner at
// depth plies, best being the winning move (or -1).
func (s *Searcher) decide(e *entry, winner engine.Color, depth uint16, best engine.Move) {
	e.pn, e.dn = s.terminal(winner)
	e.depth, e.best = depth, s.sym.enc(best)
	e.flags |= fExpanded
}

// inherit decides e, the new node of position hash h, from the other goal's
// entry of the same position when that one settles this goal too: a proved
// Win is a proved NotLose, a disproved NotLose a disproved Win.
func (s *Searcher) inherit(e *entry, h uint64) bool {
	if !s.otherUsed() {
		return false
	}
	o := s.tab.find(h ^ s.other)
	if o == nil {
		return false
	}
	switch {
	case s.goal == NotLose && o.pn == 0, s.goal == Win && o.dn == 0:
		e.pn, e.dn, e.depth, e.best = o.pn, o.dn, o.depth, o.best
		return true
	}
	return false
}

// otherUsed tells whether the other goal has entries for this attacker.
func (s *Searcher) otherUsed() bool { return s.used[s.goal^1][s.attacker&1] }

// expand creates the children of the leaf e at the end of the path and sets
// its numbers; false when the table has no room for them (some may have
// been created).
func (s *Searcher) expand(ctx context.Context, e *entry) bool {
	h := s.path[len(s.path)-1].hash
	d := len(s.path)
	me := s.pos.ToMove()
	opp := me.Other()
	moves := s.candidates(s.bufAt(d))
	s.moves[d] = moves
	s.work += 4 * len(moves)
	// An immediate win decides the node; threats restrict the children.
	threat, threats := engine.NoMove, 0
	for _, m := range moves {
		cell := s.pos.Cell(m)
		if s.pos.WinsAt(cell, me) {
			s.count()
			s.decide(e, me, 1, m)
			return true
		}
		if threats < 2 && s.pos.WinsAt(cell, opp) {
			if threats == 0 || m != threat {
				threats++
			}
			threat = m
		}
	}
	if threats >= 2 {
		s.count()
		s.decide(e, opp, 2, threat)
		return true
	}
	live := -1 // windows of the dead side (dead.go); -1: not counted
	side := s.deadSide()
	if s.cover != nil {
		if live = liveWindows(s.pos, side, s.cover); live == 0 {
			// NotLose proved: any move keeps it; Win disproved: no move
			// to prefer (Best says none, the caller keeps its own).
			best := engine.NoMove
			if s.goal == NotLose && len(moves) > 0 {
				best = moves[0]
			}
			s.count()
			s.decide(e, engine.Empty, s.drawDepth(s.pos.Ply()), best)
			return true
		}
	}
	e.forced = -1
	if threats == 1 {
		e.forced = s.sym.enc(threat)
		moves = append(moves[:0], threat)
	}
	s.count()
	full := s.pos.Ply()+1 == s.rules.Cells()
	mover := me == s.attacker
	hint := dbHint{win: engine.NoMove}
	if s.db != nil && threats == 0 && !full && (s.opt.DBMaxPly == 0 || d-1 < s.opt.DBMaxPly) {
		hint = s.dbProbe(ctx)
	}
	for _, m := range moves {
		ch := s.childKey(m)
		c, created := s.tab.insert(ch ^ s.salt)
		if c == nil {
			return false // a shard is full: collect first
		}
		if !created {
			continue
		}
		if full {
			c.pn, c.dn = s.terminal(engine.Empty)
			continue
		}
		if live > 0 && me != side && int(s.cover[s.pos.Cell(m)]) == live {
			// The move fills the last window of the dead side.
			c.pn, c.dn = s.terminal(engine.Empty)
			c.depth = s.drawDepth(s.pos.Ply() + 1)
			continue
		}
		if s.inherit(c, ch) || s.hint(&hint, c, m, mover) {
			continue
		}
		q := uint32(Quality(s.pos, s.pos.Cell(m), me))
		good, bad := 1+q, 1+(QualityMax-q)
		if mover {
			c.pn, c.dn = bad, good
		} else {
			c.pn, c.dn = good, bad
		}
	}
	e = s.tab.find(h ^ s.salt) // inserting may have moved it
	e.flags |= fExpanded
	e.pn, e.dn, e.depth, e.best = s.combine(e)
	return true
}

// count counts one expansion.
func (s *Searcher) count() {
	s.stats.Expanded++
	s.total++
}
