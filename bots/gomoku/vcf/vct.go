package vcf

import (
	"github.com/kinrow/kinrow/bots/gomoku/pattern"
	"github.com/kinrow/kinrow/engine"
)

// vct is the attacker's node of the VCT search: a wins by fours alone, or
// by a four or an open three after which every defence still loses.
func (s *Searcher) vct(a engine.Color, depth, ply int) bool {
	if s.out() {
		return false
	}
	b := s.b
	five, dfives, dfive, _ := s.scan(a, s.list(ply))
	if five >= 0 {
		return s.won(five, ply)
	}
	if dfives > 1 {
		return false
	}
	if dfives == 1 {
		// The block is forced; a keeps the initiative only if it still
		// holds a threat after it (or the block is itself a four).
		if b.P4(a, dfive) >= pattern.Block4 && b.P4(a, dfive) != pattern.Forbidden {
			return s.attack(a, dfive, depth, ply, s.vct) && s.won(dfive, ply)
		}
		if b.P4(a, dfive) == pattern.Forbidden {
			return false
		}
		s.play(a, dfive)
		ok := depth > 0 && s.defend(a, depth, ply+1)
		s.undo()
		return ok && s.won(dfive, ply)
	}
	if s.vcf(a, depth+2, ply) {
		return true // vcf recorded its first move at the root
	}
	if depth <= 0 || s.budget == 0 {
		return false
	}
	h := b.Hash() ^ kindVCT ^ uint64(a)<<40 ^ uint64(depth)<<48
	if s.refuted(h) {
		return false
	}
	ms := s.list(ply)
	for _, p := range b.Cells() {
		if !b.Empty(p) || !b.Near(p) {
			continue
		}
		if c := b.P4(a, p); c >= pattern.Flex3 && c != pattern.Forbidden {
			ms = append(ms, p)
		}
	}
	s.lists[ply] = ms
	s.sortByClass(a, ms)
	for _, m := range ms {
		var ok bool
		if b.P4(a, m) >= pattern.Block4 {
			ok = s.attack(a, m, depth, ply, s.vct)
		} else {
			s.play(a, m)
			ok = s.defend(a, depth, ply+1)
			s.undo()
		}
		if ok {
			return s.won(m, ply)
		}
		if s.budget == 0 {
			return false
		}
	}
	if s.nodes <= s.budget {
		s.refute(h)
	}
	return false
}

// defend is the defender's node after a's open three: every cell where a
// would make a four (the cells that stop the three are among them) and
// every four of the defender's own must lose for the defender.
func (s *Searcher) defend(a engine.Color, depth, ply int) bool {
	if s.out() {
		return false
	}
	b := s.b
	d := a.Other()
	threat := false
	ms := s.list(ply)
	for _, p := range b.Cells() {
		if !b.Empty(p) || !b.Near(p) {
			continue
		}
		pd := b.P4(d, p)
		if pd == pattern.Five {
			return false
		}
		pa := b.P4(a, p)
		if pa == pattern.Five {
			return false // a four of a's was left unanswered: not a VCT line
		}
		if pa == pattern.Flex4 {
			threat = true
		}
		if pa >= pattern.Block4 || pd >= pattern.Block4 {
			ms = append(ms, p)
		}
	}
	s.lists[ply] = ms
	if !threat {
		return false
	}
	for _, x := range ms {
		s.play(d, x)
		ok := s.vct(a, depth-1, ply+1)
		s.undo()
		if !ok {
			return false
		}
	}
	return true
}
