package pns

import (
	"context"

	"github.com/kinrow/kinrow/engine"
)

// Solve returns the value of pos for the side to move: 1 win, 0 draw, -1
// loss; known is false when the search stopped first (see Stats). The
// NotLose search reuses the proved wins of the Win search and nothing
// else of the table.
func (s *Searcher) Solve(ctx context.Context, pos *engine.Position) (value int, known bool, err error) {
	o, err := s.Prove(ctx, pos, Win)
	if err != nil || o == Unknown {
		return 0, false, err
	}
	if o == Proved {
		return 1, true, nil
	}
	s.tab.sweep(func(e *entry) bool { return e.pn == 0 }, timeUp(ctx))
	if o, err = s.Prove(ctx, pos, NotLose); err != nil || o == Unknown {
		return 0, false, err
	}
	if o == Proved {
		return 0, true, nil
	}
	return -1, true, nil
}

// Best returns the best root move of the last Prove call. When the root is
// proved (proved true), the move of the fastest proved win; when it is
// disproved, the move that resists longest; else the child with the
// smallest proof/disproof ratio that is not disproved. NoMove when the
// root was never expanded.
func (s *Searcher) Best() (m engine.Move, proved bool) {
	if !s.rooted {
		return engine.NoMove, false
	}
	s.unwind(1)
	h := s.root
	e := s.tab.find(h ^ s.salt)
	if e == nil {
		return engine.NoMove, false
	}
	if (e.pn == 0 || e.dn == 0) && e.best >= 0 {
		return s.sym.dec(e.best), e.pn == 0
	}
	if e.flags&fExpanded == 0 {
		return engine.NoMove, false
	}
	best := engine.NoMove
	var bp, bd uint32 = Inf, 1
	for _, mv := range s.children(0, e) {
		c := s.tab.find(s.childKey(mv) ^ s.salt)
		if c == nil {
			continue
		}
		if c.pn >= Inf {
			continue
		}
		// c.pn/c.dn < bp/bd
		if best == engine.NoMove || uint64(c.pn)*uint64(bd) < uint64(bp)*uint64(c.dn) {
			best, bp, bd = mv, c.pn, c.dn
		}
	}
	return best, false
}

// PV appends to dst the principal variation of the last Prove call: the
// remembered best child from the root on, at most n moves.
func (s *Searcher) PV(dst []engine.Move, n int) []engine.Move {
	if !s.rooted {
		return dst
	}
	s.unwind(1)
	h := s.root
	played := 0
	for ; played < n; played++ {
		e := s.tab.find(h ^ s.salt)
		if e == nil || e.best < 0 || e.flags&fExpanded == 0 && e.pn != 0 && e.dn != 0 {
			break
		}
		m := s.sym.dec(e.best)
		if !s.pos.Legal(m) {
			break
		}
		dst = append(dst, m)
		h = s.childKey(m)
		s.play(m)
		if s.pos.Result() != engine.Open {
			played++
			break
		}
	}
	for ; played > 0; played-- {
		s.undo()
	}
	return dst
}
