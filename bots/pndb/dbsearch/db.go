package dbsearch

// dbNode is a node of the DB tree: a set of threats applied in order, kept
// as the threat indices s.lists[list0 : list0+listN].
type dbNode struct {
	list0, listN int32
	hash         uint64
	// focusN: the threats (a suffix of the list) whose gains new threats
	// must touch: the last one for a dependency node, the second parent's
	// own ones for a combination node (whose new threats must also touch a
	// gain of the first parent).
	focusN int32
	combo  bool
}

// seen records a node hash in the per-search set; false if it was there.
func (s *Searcher) seen(h uint64) bool {
	if h == 0 {
		h = 1
	}
	mask := uint64(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.table[i] {
		case h:
			return false
		case 0:
			if len(s.slots)*2 >= len(s.table) {
				return false // full: treat as seen, stop growing
			}
			s.table[i] = h
			s.slots = append(s.slots, int32(i))
			return true
		}
	}
}

// addChild appends a node whose list is parent's list plus threat ti; it
// returns false when the same set of gains was reached before.
func (s *Searcher) addChild(parent int, ti int) bool {
	p := s.tree[parent]
	h := p.hash ^ s.keys[s.threats[ti].gain]
	if !s.seen(h) {
		return false
	}
	l0 := int32(len(s.lists))
	s.lists = append(s.lists, s.lists[p.list0:p.list0+p.listN]...)
	s.lists = append(s.lists, int32(ti))
	s.tree = append(s.tree, dbNode{list0: l0, listN: p.listN + 1, hash: h, focusN: 1})
	return true
}

// expand finds the threats that node n's board allows and that depend on
// its focus, adding a child per threat and recording goals.
func (s *Searcher) expand(n int) {
	att, def := s.att, s.def
	node := s.tree[n]
	b := s.b
	s.moveTo(&node)
	if b.full[att] > 0 || b.full[def] > 0 {
		return
	}
	if b.hasWin(att) {
		s.goals = append(s.goals, goal{node: int32(n), threat: -1})
		return
	}
	// A defender's four (made by a forced reply) must be blocked: the
	// block is the only gain tried, and it must be a threat itself.
	top := len(s.stk)
	s.stk = b.wins(def, s.stk)
	nd := len(s.stk) - top
	if nd == 1 {
		s.cand = append(s.cand[:0], s.stk[top])
	}
	s.stk = s.stk[:top]
	if nd >= 2 {
		return
	}
	cand := s.cand
	if nd == 0 {
		cand = s.candidates(&node)
	}
	for i := 0; i < len(cand); i++ {
		g := int(cand[i])
		ti := s.evalGain(g)
		if ti < 0 {
			continue
		}
		if s.threats[ti].kind == threatGoal {
			s.goals = append(s.goals, goal{node: int32(n), threat: int32(ti)})
			continue
		}
		s.addChild(n, ti)
	}
}

// goal is a winning sequence: node's threats, then the goal threat (or none
// when node's board already has a winning cell).
type goal struct {
	node, threat int32
}

// candidates fills s.cand with the gain cells to try at node (its board
// applied) and returns it: under gravity every playable cell; on m,n,k the
// empty cells of the attacker's tier-2 and tier-3 windows (tier 3 only when
// K >= 4), at the root all of them, elsewhere those of windows through a
// focus gain (and, for a combination, through a gain of the first parent).
func (s *Searcher) candidates(n *dbNode) []int32 {
	att, def := s.att, s.def
	b := s.b
	s.cand = s.cand[:0]
	st := b.newStamp()
	if b.gravity {
		for col := 0; col < b.cols; col++ {
			if c := b.colTop(col); c >= 0 {
				s.cand = append(s.cand, int32(c))
			}
		}
		return s.cand
	}
	top := 3
	if b.k < 4 {
		top = 2
	}
	if n.listN == 0 {
		for _, w := range b.hot[att][2] {
			s.cand = b.addEmpties(w, st, s.cand)
		}
		if top == 3 {
			s.cand = b.tierEmpties(att, 3, st, s.cand)
		}
		return s.cand
	}
	// Windows through a focus gain; for a combination they must also hold a
	// gain of the first parent (marked with a second stamp value via aux).
	list := s.lists[n.list0 : n.list0+n.listN]
	aStamp := uint32(0)
	if n.combo {
		aStamp = b.newStamp()
		for _, ti := range list[:len(list)-int(n.focusN)] {
			b.mark[s.threats[ti].gain] = aStamp
		}
		st = b.newStamp()
	}
	for _, ti := range list[len(list)-int(n.focusN):] {
		g := int(s.threats[ti].gain)
		for _, w := range b.cellWin[b.cellWinOff[g]:b.cellWinOff[g+1]] {
			if b.cnt[w][def] != 0 {
				continue
			}
			if t := b.k - int(b.cnt[w][att]); t < 2 || t > top {
				continue
			}
			if n.combo && !s.touches(w, aStamp) {
				continue
			}
			s.cand = b.addEmpties(w, st, s.cand)
		}
	}
	return s.cand
}

// touches reports whether window w holds a cell marked with stamp st.
func (s *Searcher) touches(w int32, st uint32) bool {
	b := s.b
	c, step := int(b.winStart[w]), int(b.winStep[w])
	for i := 0; i < b.k; i++ {
		if b.mark[c] == st {
			return true
		}
		c += step
	}
	return false
}

// combine tries to join nodes a and b (a < b): no cell is a gain in one and
// a cost in the other, and each brings a threat the other lacks. The
// combination lists a's threats then b's own ones, which are its focus.
func (s *Searcher) combine(a, b int) bool {
	na, nb := s.tree[a], s.tree[b]
	bd := s.b
	st := bd.newStamp()
	// mark: st on a's gains, st+1 on a's costs (two stamps in a row).
	cst := bd.newStamp()
	for _, ti := range s.lists[na.list0 : na.list0+na.listN] {
		t := &s.threats[ti]
		bd.mark[t.gain] = st
		for _, c := range s.costs[t.cost0 : t.cost0+t.costN] {
			bd.mark[c] = cst
		}
	}
	own, shared := 0, 0
	h := na.hash
	for _, ti := range s.lists[nb.list0 : nb.list0+nb.listN] {
		t := &s.threats[ti]
		switch bd.mark[t.gain] {
		case cst:
			return false
		case st:
			shared++
			continue
		}
		for _, c := range s.costs[t.cost0 : t.cost0+t.costN] {
			if bd.mark[c] == st {
				return false
			}
		}
		own++
		h ^= s.keys[t.gain]
	}
	if own == 0 || shared == int(na.listN) {
		return false
	}
	if !s.seen(h) {
		return false
	}
	l0 := int32(len(s.lists))
	s.lists = append(s.lists, s.lists[na.list0:na.list0+na.listN]...)
	for _, ti := range s.lists[nb.list0 : nb.list0+nb.listN] {
		if bd.mark[s.threats[ti].gain] != st {
			s.lists = append(s.lists, ti)
		}
	}
	s.tree = append(s.tree, dbNode{list0: l0, listN: int32(len(s.lists)) - l0, hash: h, focusN: int32(own), combo: true})
	return true
}
