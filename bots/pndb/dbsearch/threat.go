package dbsearch

// Threat kinds, as evalGain finds them.
const (
	notThreat = iota
	threatFour
	threatThree
	threatGoal
)

// threat is one operator applied: the attacker's gain cell and the
// defender's cost cells (all of its replies, played at once). For a goal the
// costs are the cells the attacker wins on.
type threat struct {
	gain         int32
	cost0, costN int32 // s.costs[cost0 : cost0+costN]
	kind         int8
}

// evalGain applies the operators to an attacker stone on the playable cell g
// of s.b and, for a threat or a goal, appends it to s.threats (returning its
// index) with its costs in s.costs; -1 if g is no threat. The operators, on
// windows of K cells (see doc.go):
//
//   - four: after g the attacker has exactly one playable winning cell w,
//     the cost; the defender's stone on w must not complete a line of its
//     own; if it gives the defender a winning cell, the next threat must
//     be its block; if it opens one for the attacker (gravity, the cell
//     above w: two winning cells stacked in a column) the threat is a goal;
//   - three (m,n,k, K >= 4): no winning cell, but some attacker move f then
//     makes two; the costs are every cell that breaks every such f (none: a
//     goal, e.g. a double three);
//   - goal: two playable winning cells after g.
//
// A gain after which the defender has a playable winning cell is no threat.
func (s *Searcher) evalGain(g int) int {
	if !s.b.gravity {
		return s.evalGainRead(g)
	}
	return s.evalGainReadGravity(g)
}

// evalGainPlayed is evalGain with the stone on g played on the board (any
// rules; the one used under gravity).
func (s *Searcher) evalGainPlayed(g int) int {
	att, def := s.att, s.def
	b := s.b
	b.put(g, att)
	defer b.take(g, att)
	// An attacker stone gives the defender a winning cell only under
	// gravity (the cell above g); expand made sure it had none before but
	// the one g blocks.
	if b.gravity && b.hasWin(def) {
		return -1
	}
	c0 := len(s.costs)
	s.costs = b.wins(att, s.costs)
	kind := int8(notThreat)
	switch n := len(s.costs) - c0; {
	case n >= 2:
		kind = threatGoal
	case n == 1:
		// The block w, judged without playing it: it completes a line of
		// the defender's when w is a winning cell of its; it leaves the
		// attacker a playable winning cell only under gravity, on the cell
		// above w (w was the only one, and no window through w stays the
		// attacker's).
		w := int(s.costs[c0])
		switch {
		case b.isWinCell(w, def): // the block wins for the defender
		case b.gravity && b.above(w) >= 0 && b.isWinCell(b.above(w), att):
			kind = threatGoal // the stacked win: the block opens a winning cell
			b.put(w, def)
			s.costs = b.wins(att, s.costs)
			b.take(w, def)
		default:
			// A block that makes a four of the defender's is allowed: the
			// next gain must then block it (see expand).
			kind = threatFour
		}
	default:
		if b.gravity || b.k < 4 || !s.localDoubles(g) {
			break
		}
		// The costs: the cells that break every new double-four move (the
		// defender's counter-fours are the global defence's job).
		st := b.newStamp()
		top := len(s.stk)
		for _, f := range s.ftmp {
			s.stk = s.addCand(int(f), st, s.stk)
			s.stk = s.tierTwoEmpties(int(f), st, s.stk)
		}
		for _, c := range s.stk[top:] {
			if s.isBreaking(int(c)) {
				s.costs = append(s.costs, c)
			}
		}
		s.stk = s.stk[:top]
		if len(s.costs) == c0 {
			kind = threatGoal
			s.costs = append(s.costs, s.ftmp...)
			break
		}
		kind = threatThree
		// All the replies at once must not hand the defender a line.
		for _, c := range s.costs[c0:] {
			b.put(int(c), def)
		}
		if b.full[def] > 0 || b.hasWin(def) {
			kind = notThreat
		}
		for _, c := range s.costs[c0:] {
			b.take(int(c), def)
		}
	}
	if kind == notThreat {
		s.costs = s.costs[:c0]
		return -1
	}
	s.threats = append(s.threats, threat{gain: int32(g), cost0: int32(c0), costN: int32(len(s.costs) - c0), kind: kind})
	return len(s.threats) - 1
}

// isBreaking reports whether a defender stone on c leaves none of the moves
// in s.ftmp a double four (m,n,k).
func (s *Searcher) isBreaking(c int) bool {
	for _, f := range s.ftmp {
		if int(f) != c && s.isDoubleWithout(int(f), c) {
			return false
		}
	}
	return true
}

// localDoubles fills s.ftmp with the attacker's double-four moves that its
// stone on g makes (empties of windows through g with K−2 attacker stones
// and no defender's); false if there are none (m,n,k).
func (s *Searcher) localDoubles(g int) bool {
	att, def := s.att, s.def
	b := s.b
	s.ftmp = s.ftmp[:0]
	st := b.newStamp()
	k2 := int16(b.k - 2)
	for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
		if b.cnt[w][att] != k2 || b.cnt[w][def] != 0 {
			continue
		}
		c, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if b.cells[c] == empty && b.mark[c] != st {
				b.mark[c] = st
				if s.isDouble(c) {
					s.ftmp = append(s.ftmp, int32(c))
				}
			}
			c += step
		}
	}
	return len(s.ftmp) > 0
}

// tierTwoEmpties appends the unmarked empty cells of the attacker's windows
// through f with K−2 attacker stones and no defender's (m,n,k).
func (s *Searcher) tierTwoEmpties(f int, st uint32, dst []int32) []int32 {
	att, def := s.att, s.def
	b := s.b
	k2 := int16(b.k - 2)
	for _, w := range b.cellWin[b.cellWinOff[f]:b.cellWinOff[f+1]] {
		if b.cnt[w][att] == k2 && b.cnt[w][def] == 0 {
			dst = s.b.addEmpties(w, st, dst)
		}
	}
	return dst
}
