package dbsearch

// The search board holds pos plus the threats of one DB node. Its stones
// do not depend on the order the threats are played in (within a node no
// cell is a gain of one threat and a cost of another: expand plays gains
// on empty cells, combine refuses such pairs), so the board is kept as a
// set of applied threats, and moving it to the next node takes back the
// threats that node lacks and plays those it adds, wherever they sit in
// the lists: siblings differ in one threat, combinations of one node with
// several others in a few. A cell is played when its first threat comes
// and taken when its last one goes (two threats of a combination may share
// a defender reply).

// moveTo makes s.b pos plus node n's threats: gains for the attacker,
// every cost for the defender.
func (s *Searcher) moveTo(n *dbNode) {
	list := s.lists[n.list0 : n.list0+n.listN]
	if cap(s.tmark) < len(s.threats) {
		s.tmark = make([]uint32, len(s.threats), 2*len(s.threats))
	}
	s.tmark = s.tmark[:len(s.threats)]
	in := s.newThreatStamp()
	for _, ti := range list {
		s.tmark[ti] = in
	}
	for i := 0; i < len(s.cur); {
		if ti := s.cur[i]; s.tmark[ti] != in {
			s.drop(ti)
			s.cur[i] = s.cur[len(s.cur)-1]
			s.cur = s.cur[:len(s.cur)-1]
			continue
		}
		i++
	}
	have := s.newThreatStamp()
	for _, ti := range s.cur {
		s.tmark[ti] = have
	}
	for _, ti := range list {
		if s.tmark[ti] != have {
			s.add(ti)
			s.cur = append(s.cur, ti)
		}
	}
}

// unwind takes every applied threat back: s.b is pos again.
func (s *Searcher) unwind() {
	for _, ti := range s.cur {
		s.drop(ti)
	}
	s.cur = s.cur[:0]
}

// newThreatStamp starts a new set of threats (see tmark).
func (s *Searcher) newThreatStamp() uint32 {
	s.tstamp++
	if s.tstamp == 0 {
		clear(s.tmark[:cap(s.tmark)])
		s.tstamp = 1
	}
	return s.tstamp
}

// add plays threat ti's cells not already down.
func (s *Searcher) add(ti int32) {
	t := &s.threats[ti]
	s.hold(int(t.gain), s.att)
	for _, c := range s.costs[t.cost0 : t.cost0+t.costN] {
		s.hold(int(c), s.def)
	}
}

// drop takes back threat ti's cells no other applied threat holds.
func (s *Searcher) drop(ti int32) {
	t := &s.threats[ti]
	for _, c := range s.costs[t.cost0 : t.cost0+t.costN] {
		s.release(int(c))
	}
	s.release(int(t.gain))
}

func (s *Searcher) hold(c int, side int8) {
	if s.refs[c]++; s.refs[c] == 1 {
		s.b.put(c, side)
	}
}

func (s *Searcher) release(c int) {
	if s.refs[c]--; s.refs[c] == 0 {
		s.b.take(c, s.b.cells[c])
	}
}
