package dbsearch

// The verifier is the global-defence search, made exact: an AND/OR search on
// the real board, attacker first, in which the attacker plays only the gain
// squares of the candidate sequence (or a forced block) and the defender
// plays every move that could matter. At a defender node:
//
//   - the defender wins if it has a playable winning cell;
//   - the attacker wins if it has two playable winning cells;
//   - with one, the defender's only move is to take it;
//   - with none, the attacker must hold a "three": a move f after which it
//     has two playable winning cells (and the defender none). Then every
//     defender move that does not win, does not make a playable winning cell
//     of its own (a counter-four) and leaves some such f loses at once (f,
//     then one of two wins), so the defender's moves are the counter-fours
//     and the cells that break every f — all legal moves under gravity,
//     where there are few. With no such f the attack has stopped: no proof.
//
// Every pruned defender move thus loses by force, so a proof here is a
// proof of the game (within the ply bound), under gravity as well.

// verify reports whether the attacker, to move on s.b, wins by the gains in
// s.seq within plies; s.first gets its first move.
func (s *Searcher) verify(plies int) bool {
	s.vply = 0
	s.vabort = false
	return s.attNode(plies)
}

func (s *Searcher) count() bool {
	s.spent++
	if s.spent > s.vlimit {
		s.vabort = true
		return false
	}
	return true
}

// attNode: the attacker to move.
func (s *Searcher) attNode(depth int) bool {
	att, def := s.att, s.def
	b := s.b
	if !s.count() {
		return false
	}
	top := len(s.stk)
	defer func() { s.stk = s.stk[:top] }()
	s.stk = b.wins(att, s.stk)
	if len(s.stk) > top {
		if s.vply == 0 {
			s.first = int(s.stk[top])
		}
		return true
	}
	if depth <= 1 {
		return false
	}
	s.stk = b.wins(def, s.stk)
	switch n := len(s.stk) - top; {
	case n >= 2:
		return false
	case n == 0:
		for _, g := range s.seq {
			if b.playable(int(g)) {
				s.stk = append(s.stk, g)
			}
		}
	}
	for i := top; i < len(s.stk); i++ {
		m := int(s.stk[i])
		b.put(m, att)
		s.vply++
		ok := s.defNode(depth - 1)
		s.vply--
		b.take(m, att)
		if ok {
			if s.vply == 0 {
				s.first = m
			}
			return true
		}
		if s.vabort {
			return false
		}
	}
	return false
}

// defNode: the defender to move; true if the attacker wins whatever it does.
func (s *Searcher) defNode(depth int) bool {
	att, def := s.att, s.def
	b := s.b
	if !s.count() {
		return false
	}
	if b.full[att] > 0 {
		return true
	}
	if b.hasWin(def) {
		return false
	}
	top := len(s.stk)
	defer func() { s.stk = s.stk[:top] }()
	s.stk = b.wins(att, s.stk)
	switch n := len(s.stk) - top; {
	case n >= 2:
		return true
	case n == 0:
		if depth <= 2 {
			return false
		}
		if !s.defences() {
			return false
		}
		// No move stops every f: whatever the defender plays (there is a
		// legal move, f's cell), f then wins.
	}
	for i := top; i < len(s.stk); i++ {
		m := int(s.stk[i])
		b.put(m, def)
		s.vply++
		ok := s.attNode(depth - 1)
		s.vply--
		b.take(m, def)
		if !ok {
			return false
		}
	}
	return true
}

// defences appends to s.stk the defender's moves against an attacker with
// no winning cell; false if the attacker has no three (no f) either.
func (s *Searcher) defences() bool {
	def := s.def
	b := s.b
	if b.gravity {
		top := len(s.stk)
		s.stk = s.doubles(s.stk)
		if len(s.stk) == top {
			return false
		}
		s.stk = s.stk[:top]
		for col := 0; col < b.cols; col++ {
			if c := b.colTop(col); c >= 0 {
				s.stk = append(s.stk, int32(c))
			}
		}
		return true
	}
	// m,n,k: F (the attacker's double-four moves) into s.tmp, candidates
	// that might break them into s.stk after the counter-fours.
	fTop := len(s.stk)
	s.stk = s.doubles(s.stk)
	nf := len(s.stk) - fTop
	if nf == 0 {
		return false
	}
	s.ftmp = append(s.ftmp[:0], s.stk[fTop:]...)
	s.stk = s.stk[:fTop]
	st := b.newStamp()
	// Counter-fours: empties of the defender's tier-2 windows.
	for _, w := range b.hot[def][2] {
		c, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if b.cells[c] == empty && b.mark[c] != st {
				b.mark[c] = st
				s.stk = append(s.stk, int32(c))
			}
			c += step
		}
	}
	// Breaking cells: each f and the cells it would win on.
	cTop := len(s.stk)
	for _, f := range s.ftmp {
		s.stk = s.addCand(int(f), st, s.stk)
		s.stk = s.tierTwoEmpties(int(f), st, s.stk)
	}
	// Keep the candidates that leave no f double.
	keep := cTop
	for i := cTop; i < len(s.stk); i++ {
		c := int(s.stk[i])
		if s.isBreaking(c) {
			s.stk[keep] = int32(c)
			keep++
		}
	}
	s.stk = s.stk[:keep]
	return true
}

func (s *Searcher) addCand(c int, st uint32, dst []int32) []int32 {
	if s.b.mark[c] != st {
		s.b.mark[c] = st
		dst = append(dst, int32(c))
	}
	return dst
}

// isDouble reports whether an attacker stone on the empty cell f (m,n,k)
// would give it two distinct winning cells: isDoubleWithout with no
// defender stone added (-1 is no cell).
func (s *Searcher) isDouble(f int) bool { return s.isDoubleWithout(f, -1) }

// isDoubleWithout is isDouble(f) on the board with a defender stone on the
// empty cell c (c != f), read without changing the board: a window through
// f with K−2 attacker stones and no defender's has two empty cells, f and
// one other, and c's stone kills it exactly when c is that other one.
func (s *Searcher) isDoubleWithout(f, c int) bool {
	att, def := s.att, s.def
	b := s.b
	k2 := int16(b.k - 2)
	if !b.twoWindows(f, att, k2) {
		return false
	}
	first := -1
	for _, w := range b.cellWin[b.cellWinOff[f]:b.cellWinOff[f+1]] {
		if b.cnt[w][att] != k2 || b.cnt[w][def] != 0 {
			continue
		}
		x, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if x != f && b.cells[x] == empty {
				if x != c {
					if first < 0 {
						first = x
					} else if x != first {
						return true
					}
				}
				break
			}
			x += step
		}
	}
	return false
}

// doubles appends the attacker's moves after which it has two playable
// winning cells and the defender none (called when the attacker has no
// winning cell and the defender none).
func (s *Searcher) doubles(dst []int32) []int32 {
	att, def := s.att, s.def
	b := s.b
	if b.gravity {
		for col := 0; col < b.cols; col++ {
			f := b.colTop(col)
			if f < 0 {
				continue
			}
			b.put(f, att)
			if !b.hasWin(def) && b.countWins(att, 2) >= 2 {
				dst = append(dst, int32(f))
			}
			b.take(f, att)
		}
		return dst
	}
	st := b.newStamp()
	for _, w := range b.hot[att][2] {
		c, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if b.cells[c] == empty && b.mark[c] != st {
				b.mark[c] = st
				if s.isDouble(c) {
					dst = append(dst, int32(c))
				}
			}
			c += step
		}
	}
	return dst
}
