package dbsearch

import (
	"context"
	"fmt"

	"github.com/kinrow/kinrow/engine"
)

// ctxEvery is how many DB nodes pass between two looks at the context.
const ctxEvery = 256

// Search looks for a winning threat sequence for attacker on pos. If
// attacker is not the side to move, the side to move is taken to pass (the
// implicit-threat / null-move use). pos is not changed (the search works on
// its own copy). A finished game gives no Win. No allocation per call once
// warmed up.
func (s *Searcher) Search(ctx context.Context, pos *engine.Position, attacker engine.Color) (Result, error) {
	s.stats.Searches++
	res := Result{First: -1, Cells: s.out[:0]}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("dbsearch: %w", err)
	}
	if pos.Rules() != s.rules {
		return res, fmt.Errorf("dbsearch: position rules %s, searcher rules %s", pos.Rules(), s.rules)
	}
	if attacker != engine.X && attacker != engine.O {
		return res, fmt.Errorf("dbsearch: invalid attacker %d", attacker)
	}
	if pos.Result() != engine.Open {
		return res, nil
	}
	s.load(pos, attacker)
	att := s.att
	s.spent = 0
	defer func() {
		s.stats.Nodes += int64(s.spent)
		s.unwind() // the board back to pos for the next load
	}()
	if s.b.hasWin(att) {
		s.stk = s.b.wins(att, s.stk[:0])
		s.plies = 1
		res.Win, res.First = true, int(s.stk[0])
		s.out = append(s.out[:0], res.First)
		res.Cells = s.out
		return res, nil
	}
	s.resetTree()
	tried, qs, nextCheck := 0, 0, ctxEvery
	for {
		// Dependency stage: expand the new nodes and, in turn, their children.
		for i := qs; i < len(s.tree); i++ {
			if s.spent >= nextCheck {
				if err := ctx.Err(); err != nil {
					return res, fmt.Errorf("dbsearch: %w", err)
				}
				nextCheck = s.spent + ctxEvery
			}
			s.spent++
			s.expand(i)
			for _, g := range s.goals {
				if tried >= s.opt.MaxSequences || s.spent >= s.opt.MaxNodes {
					break
				}
				tried++
				s.stats.Sequences++
				s.unwind() // the replay starts from pos
				if s.tryGoal(g) {
					return s.result(g), nil
				}
			}
			s.goals = s.goals[:0]
			if tried >= s.opt.MaxSequences || s.spent >= s.opt.MaxNodes {
				return res, nil
			}
		}
		// Combination stage: join each node of this stage with every older
		// one; the combinations are the next stage's new nodes.
		hi := len(s.tree)
		pairs := 0
		for b := max(qs, 1); b < hi; b++ {
			for a := 1; a < b; a++ {
				if pairs++; pairs%pairsPerNode == 0 {
					s.spent++
					if s.spent >= s.opt.MaxNodes {
						return res, nil
					}
				}
				s.combine(a, b)
			}
		}
		if len(s.tree) == hi {
			return res, nil
		}
		qs = hi
	}
}

// load makes the search board pos with attacker's stones as side s.att.
func (s *Searcher) load(pos *engine.Position, attacker engine.Color) {
	s.att = int8(attacker)
	s.def = s.att ^ 1
	s.b.load(pos)
}

// resetTree empties the DB tree down to its root.
func (s *Searcher) resetTree() {
	s.tree = append(s.tree[:0], dbNode{})
	s.lists = s.lists[:0]
	s.threats = s.threats[:0]
	s.costs = s.costs[:0]
	s.goals = s.goals[:0]
	for _, i := range s.slots {
		s.table[i] = 0
	}
	s.slots = s.slots[:0]
}

// tryGoal replays goal g's sequence on the real board against every
// defence (see verify.go).
func (s *Searcher) tryGoal(g goal) bool {
	n := &s.tree[g.node]
	s.seq = s.seq[:0]
	for _, ti := range s.lists[n.list0 : n.list0+n.listN] {
		s.seq = append(s.seq, s.threats[ti].gain)
	}
	if g.threat >= 0 {
		s.seq = append(s.seq, s.threats[g.threat].gain)
	}
	s.stk = s.stk[:0]
	s.plies = 2*len(s.seq) + 1 + 2*extraPlies
	s.vlimit = min(s.opt.MaxNodes, s.spent+max(minVerifyNodes, s.opt.MaxNodes/verifyShare))
	return s.verify(s.plies)
}

// pairsPerNode is how many combination checks count as one node.
const pairsPerNode = 16

// A verification may spend MaxNodes/verifyShare nodes (at least
// minVerifyNodes), so that one stubborn sequence leaves room for the others.
const (
	verifyShare    = 4
	minVerifyNodes = 64
)

// extraPlies is the number of counter-four exchanges a verification allows.
const extraPlies = 3

// result fills the Result of a verified goal.
func (s *Searcher) result(g goal) Result {
	att, def := s.att, s.def
	n := &s.tree[g.node]
	// First leads (it may be a block the sequence does not list).
	s.out = append(s.out[:0], s.first)
	add := func(ti int32) {
		t := &s.threats[ti]
		s.out = append(s.out, int(t.gain))
		for _, c := range s.costs[t.cost0 : t.cost0+t.costN] {
			s.out = append(s.out, int(c))
		}
	}
	threats := int(n.listN)
	for _, ti := range s.lists[n.list0 : n.list0+n.listN] {
		add(ti)
	}
	if g.threat >= 0 {
		add(g.threat)
		threats++
	} else {
		// The node's board already had a winning cell: add it.
		s.moveTo(n)
		top := len(s.stk)
		s.stk = s.b.wins(att, s.stk)
		for _, c := range s.stk[top:] {
			s.out = append(s.out, int(c))
		}
		s.stk = s.stk[:top]
		s.unwind()
	}
	// The defender's counter-four cells: the moves off the sequence that
	// may still stop it, by forcing the attacker's answer.
	top := len(s.stk)
	s.stk = s.b.tierEmpties(def, 2, s.b.newStamp(), s.stk)
	for _, c := range s.stk[top:] {
		s.out = append(s.out, int(c))
	}
	s.stk = s.stk[:top]
	return Result{Win: true, First: s.first, Cells: s.out, Threats: threats}
}
