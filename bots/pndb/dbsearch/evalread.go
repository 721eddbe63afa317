package dbsearch

// evalGain reads the board as if the attacker's stone were on g instead of
// playing it (on m,n,k always, under gravity but for the rare stacked
// goal): a put and a take cost a pass over every window through g keeping
// the hot sets, and most gain cells tried turn out to be no threat. The
// windows through g are marked (wmark), and a window's attacker count with
// g down is its count plus one when it is marked. evalGainRead and
// evalGainReadGravity give exactly what evalGainPlayed gives
// (TestEvalGainRead).

// evalGainRead is evalGain on m,n,k, without playing g. It relies on what
// expand guarantees: no line is complete, the attacker has no winning cell,
// and the defender has none but possibly g.
func (s *Searcher) evalGainRead(g int) int {
	b := s.b
	att, def := s.att, s.def
	k2 := int16(b.k - 2)
	wst := b.newWinStamp()
	for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
		b.wmark[w] = wst
	}
	// The attacker's winning cells with g down: the other empty cell of
	// each window through g with K−2 attacker stones (it had none before).
	c0 := len(s.costs)
	st := b.newStamp()
	b.mark[g] = st
	for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
		if b.cnt[w][def] == 0 && b.cnt[w][att] == k2 {
			s.costs = b.addEmpties(w, st, s.costs)
		}
	}
	kind := int8(notThreat)
	switch n := len(s.costs) - c0; {
	case n >= 2:
		kind = threatGoal
	case n == 1:
		// A block on w that completes a line of the defender's (one that
		// does not run through g) is no answer to be forced.
		if !s.defWinsWith(int(s.costs[c0]), wst) {
			kind = threatFour
		}
	default:
		if b.k < 4 || !s.localDoublesWith(g, wst) {
			break
		}
		// The costs: the cells that break every new double-four move.
		st := b.newStamp()
		b.mark[g] = st
		top := len(s.stk)
		for _, f := range s.ftmp {
			s.stk = s.addCand(int(f), st, s.stk)
			for _, w := range b.cellWin[b.cellWinOff[f]:b.cellWinOff[f+1]] {
				if b.cnt[w][def] == 0 && s.attWith(w, wst) == k2 {
					s.stk = b.addEmpties(w, st, s.stk)
				}
			}
		}
		for _, c := range s.stk[top:] {
			broken := true
			for _, f := range s.ftmp {
				if f != c && s.isDoubleWith(int(f), g, int(c), wst) {
					broken = false
					break
				}
			}
			if broken {
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
		if s.defLineWith(s.costs[c0:], wst) {
			kind = notThreat
		}
	}
	if kind == notThreat {
		s.costs = s.costs[:c0]
		return -1
	}
	s.threats = append(s.threats, threat{gain: int32(g), cost0: int32(c0), costN: int32(len(s.costs) - c0), kind: kind})
	return len(s.threats) - 1
}

// attWith is the attacker's stones in window w with g down (the windows
// through g marked wst).
func (s *Searcher) attWith(w int32, wst uint32) int16 {
	n := s.b.cnt[w][s.att]
	if s.b.wmark[w] == wst {
		n++
	}
	return n
}

// defWinsWith reports whether a defender stone on the empty cell w would
// complete a line not through g (the windows marked wst).
func (s *Searcher) defWinsWith(w int, wst uint32) bool {
	b := s.b
	k1 := int16(b.k - 1)
	for _, x := range b.cellWin[b.cellWinOff[w]:b.cellWinOff[w+1]] {
		if b.cnt[x][s.def] == k1 && b.cnt[x][s.att] == 0 && b.wmark[x] != wst {
			return true
		}
	}
	return false
}

// defLineWith reports whether defender stones on all of costs (empty
// cells) would give it a complete line or a winning cell, with g down (the
// windows marked wst dead for it). Before them it had neither outside g's
// windows, so only windows through a cost count.
func (s *Searcher) defLineWith(costs []int32, wst uint32) bool {
	b := s.b
	st := b.newStamp()
	for _, c := range costs {
		b.mark[c] = st
	}
	need := int16(b.k - 1)
	for _, c := range costs {
		for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
			if b.cnt[w][s.att] != 0 || b.wmark[w] == wst {
				continue
			}
			n := b.cnt[w][s.def]
			if n+int16(len(costs)) < need {
				continue
			}
			x, step := int(b.winStart[w]), int(b.winStep[w])
			for i := 0; i < b.k; i++ {
				if b.mark[x] == st {
					n++
				}
				x += step
			}
			if n >= need {
				return true
			}
		}
	}
	return false
}

// localDoublesWith is localDoubles(g) without g played: it fills s.ftmp
// with the double-four moves among the empty cells of the windows that g
// brings to K−2 attacker stones; false if there are none.
func (s *Searcher) localDoublesWith(g int, wst uint32) bool {
	b := s.b
	s.ftmp = s.ftmp[:0]
	st := b.newStamp()
	b.mark[g] = st
	k3 := int16(b.k - 3)
	for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
		if b.cnt[w][s.def] != 0 || b.cnt[w][s.att] != k3 {
			continue
		}
		c, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if b.cells[c] == empty && b.mark[c] != st {
				b.mark[c] = st
				if s.isDoubleWith(c, g, -1, wst) {
					s.ftmp = append(s.ftmp, int32(c))
				}
			}
			c += step
		}
	}
	return len(s.ftmp) > 0
}

// isDoubleWith is isDouble(f) with the attacker's stone on g (the windows
// through g marked wst) and, when c >= 0, a defender stone on c, neither
// played; f, g and c are distinct empty cells. A window through f counts
// when it holds K−2 attacker stones with g and its one other empty cell
// (not f, not g) is not c.
func (s *Searcher) isDoubleWith(f, g, c int, wst uint32) bool {
	b := s.b
	k2 := int16(b.k - 2)
	ws := b.cellWin[b.cellWinOff[f]:b.cellWinOff[f+1]]
	// Two distinct winning cells take two such windows: most cells have
	// fewer, told without looking at the windows' cells.
	n := 0
	for _, w := range ws {
		if b.cnt[w][s.def] == 0 && s.attWith(w, wst) == k2 {
			if n++; n == 2 {
				break
			}
		}
	}
	if n < 2 {
		return false
	}
	first := -1
	for _, w := range ws {
		if b.cnt[w][s.def] != 0 || s.attWith(w, wst) != k2 {
			continue
		}
		// Its one empty cell other than f and g.
		x, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if x != f && x != g && b.cells[x] == empty {
				break
			}
			x += step
		}
		if x == c {
			continue
		}
		if first < 0 {
			first = x
		} else if x != first {
			return true
		}
	}
	return false
}

// evalGainReadGravity is evalGain under gravity without playing g (but in
// the rare stacked goal, left to evalGainPlayed). With g down the playable
// cells change by two: g is filled and the cell above it opens. It relies
// on what expand guarantees (see evalGainRead).
func (s *Searcher) evalGainReadGravity(g int) int {
	b := s.b
	att := s.att
	up := b.above(g)
	// The defender's winning cells with g down: it had none but g, so only
	// the opened cell can be one (its windows do not hold g, which is empty
	// and below it).
	if up >= 0 && b.isWinCell(up, s.def) {
		return -1
	}
	wst := b.newWinStamp()
	for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
		b.wmark[w] = wst
	}
	// The attacker's playable winning cells with g down, in the order
	// wins would list them: its old winning windows first (none was
	// playable; the opened cell may be one), then those g completes.
	c0 := len(s.costs)
	st := b.newStamp()
	for _, w := range b.hot[att][1] {
		if c := b.winCell(w); c == up && b.mark[c] != st {
			b.mark[c] = st
			s.costs = append(s.costs, int32(c))
		}
	}
	k2 := int16(b.k - 2)
	for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
		if b.cnt[w][s.def] != 0 || b.cnt[w][att] != k2 {
			continue
		}
		c, step := int(b.winStart[w]), int(b.winStep[w])
		for i := 0; i < b.k; i++ {
			if c != g && b.cells[c] == empty {
				break
			}
			c += step
		}
		if b.mark[c] != st && (c < b.cols || c-b.cols == g || b.cells[c-b.cols] != empty) {
			b.mark[c] = st
			s.costs = append(s.costs, int32(c))
		}
	}
	kind := int8(notThreat)
	switch n := len(s.costs) - c0; {
	case n >= 2:
		kind = threatGoal
	case n == 1:
		w := int(s.costs[c0])
		if s.defWinsWith(w, wst) {
			break // the block wins for the defender
		}
		if a := b.above(w); a >= 0 && s.attWinsWith(a, wst) {
			// The stacked win: played out, for its list of winning cells.
			s.costs = s.costs[:c0]
			return s.evalGainPlayed(g)
		}
		kind = threatFour
	}
	if kind == notThreat {
		s.costs = s.costs[:c0]
		return -1
	}
	s.threats = append(s.threats, threat{gain: int32(g), cost0: int32(c0), costN: int32(len(s.costs) - c0), kind: kind})
	return len(s.threats) - 1
}

// attWinsWith reports whether an attacker stone on the empty cell c would
// complete a line with g down (the windows through g marked wst).
func (s *Searcher) attWinsWith(c int, wst uint32) bool {
	b := s.b
	k1 := int16(b.k - 1)
	for _, w := range b.cellWin[b.cellWinOff[c]:b.cellWinOff[c+1]] {
		if b.cnt[w][s.def] == 0 && s.attWith(w, wst) == k1 {
			return true
		}
	}
	return false
}
