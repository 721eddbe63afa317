package vcf

import (
	"context"

	"github.com/kinrow/kinrow/bots/gomoku/board"
	"github.com/kinrow/kinrow/bots/gomoku/pattern"
	"github.com/kinrow/kinrow/engine"
)

// Searcher runs VCF and VCT searches on one board; not safe for concurrent
// use. Its buffers are reused: no allocation per search once warmed up.
type Searcher struct {
	b      *board.Board
	nodes  int64
	budget int64
	ctx    context.Context
	lists  [][]int
	fives  []int
	fail   []uint64 // refuted (hash ^ attacker/depth salt) positions
	stack  []int    // the moves played by the search, for undo
	best   int      // the first move of the win found
}

// New returns a searcher on b.
func New(b *board.Board) *Searcher {
	s := &Searcher{b: b, fail: make([]uint64, 1<<16)}
	for i := 0; i < 64; i++ {
		s.lists = append(s.lists, make([]int, 0, 64))
	}
	return s
}

// Nodes is the number of nodes the last search visited.
func (s *Searcher) Nodes() int64 { return s.nodes }

const (
	kindVCF = 0x5cf1_0000_0000_0001
	kindVCT = 0x7c71_0000_0000_0002
)

func (s *Searcher) refuted(h uint64) bool { return s.fail[h&uint64(len(s.fail)-1)] == h }
func (s *Searcher) refute(h uint64)       { s.fail[h&uint64(len(s.fail)-1)] = h }

// VCF looks for a win by continuous fours for attacker, who moves first
// (whoever's turn the board says), within depth attacking moves and budget
// nodes. It returns the first move (a board cell) or -1.
func (s *Searcher) VCF(ctx context.Context, attacker engine.Color, depth int, budget int64) int {
	s.start(ctx, budget)
	if s.vcf(attacker, depth, 0) {
		return s.first()
	}
	return -1
}

// VCT looks for a win by continuous threats (fours and open threes) for
// attacker, who moves first, within depth attacking moves and budget nodes.
func (s *Searcher) VCT(ctx context.Context, attacker engine.Color, depth int, budget int64) int {
	s.start(ctx, budget)
	if s.vct(attacker, depth, 0) {
		return s.first()
	}
	return -1
}

func (s *Searcher) start(ctx context.Context, budget int64) {
	s.ctx, s.nodes, s.budget = ctx, 0, budget
	s.stack = s.stack[:0]
	s.best = -1
}

func (s *Searcher) first() int { return s.best }

// out reports whether the budget or the context is spent.
func (s *Searcher) out() bool {
	s.nodes++
	if s.nodes > s.budget {
		return true
	}
	if s.nodes&63 == 0 && s.ctx.Err() != nil {
		s.budget = 0
		return true
	}
	return false
}

func (s *Searcher) list(ply int) []int {
	for ply >= len(s.lists) {
		s.lists = append(s.lists, make([]int, 0, 64))
	}
	return s.lists[ply][:0]
}

// won records m as the first move when the win is found at the root.
func (s *Searcher) won(m, ply int) bool {
	if ply == 0 {
		s.best = m
	}
	return true
}

// threats scans the candidates for attacker a and defender d: a's five,
// d's fives (up to two), and appends a's four moves (or better, not
// forbidden) to fours.
func (s *Searcher) scan(a engine.Color, fours []int) (five int, dfives int, dfive int, out []int) {
	b := s.b
	d := a.Other()
	five, dfive = -1, -1
	for _, p := range b.Cells() {
		if !b.Empty(p) || !b.Near(p) {
			continue
		}
		pa := b.P4(a, p)
		if pa == pattern.Five {
			return p, 0, -1, fours
		}
		if b.P4(d, p) == pattern.Five {
			dfives++
			dfive = p
		}
		if pa >= pattern.Block4 {
			fours = append(fours, p)
		}
	}
	return -1, dfives, dfive, fours
}

// sortByClass orders moves by a's class, strongest first (insertion sort:
// the lists are short).
func (s *Searcher) sortByClass(a engine.Color, ms []int) {
	b := s.b
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		k := int(b.P4(a, m))*1000 + int(b.Score(a, m))
		j := i
		for ; j > 0; j-- {
			o := ms[j-1]
			if int(b.P4(a, o))*1000+int(b.Score(a, o)) >= k {
				break
			}
			ms[j] = o
		}
		ms[j] = m
	}
}

func (s *Searcher) vcf(a engine.Color, depth, ply int) bool {
	if s.out() {
		return false
	}
	b := s.b
	five, dfives, dfive, fours := s.scan(a, s.list(ply))
	s.lists[ply] = fours
	if five >= 0 {
		return s.won(five, ply)
	}
	if dfives > 0 {
		if dfives > 1 || b.P4(a, dfive) < pattern.Block4 {
			return false
		}
		fours = append(fours[:0], dfive)
	}
	if depth <= 0 || len(fours) == 0 {
		return false
	}
	h := b.Hash() ^ kindVCF ^ uint64(a)<<40
	if s.refuted(h) {
		return false
	}
	s.sortByClass(a, fours)
	for _, m := range fours {
		if s.attack(a, m, depth, ply, s.vcf) {
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

// attack plays a's four on m, the defender's forced block, and continues
// with next; it restores the board.
func (s *Searcher) attack(a engine.Color, m, depth, ply int, next func(engine.Color, int, int) bool) bool {
	b := s.b
	if b.P4(a, m) == pattern.Flex4 && !s.defenderFive(a) {
		return true
	}
	s.play(a, m)
	s.fives = b.FiveCells(a, m, s.fives[:0])
	ok := false
	switch len(s.fives) {
	case 0:
	case 1:
		f := s.fives[0]
		s.play(a.Other(), f)
		ok = next(a, depth-1, ply+1)
		s.undo()
	default:
		ok = true // a double four
	}
	s.undo()
	return ok
}

// defenderFive reports whether a's opponent has a winning cell now.
func (s *Searcher) defenderFive(a engine.Color) bool {
	b := s.b
	d := a.Other()
	for _, p := range b.Cells() {
		if b.Empty(p) && b.Near(p) && b.P4(d, p) == pattern.Five {
			return true
		}
	}
	return false
}

// play puts c's stone on p whoever's turn the board says, by passing
// through the board's side to move: the board alternates colours, so a
// colour out of turn is played after a null stone is recorded.
func (s *Searcher) play(c engine.Color, p int) {
	s.b.PlayAs(c, p)
	s.stack = append(s.stack, p)
}

func (s *Searcher) undo() {
	s.b.Undo()
	s.stack = s.stack[:len(s.stack)-1]
}
