package pns

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"time"

	"github.com/kinrow/kinrow/engine"
)

// Goal is what a search tries to prove for the attacker.
type Goal uint8

const (
	// Win: the attacker (side to move at the root) wins.
	Win Goal = iota
	// NotLose: the attacker wins or draws.
	NotLose
)

// Outcome is the answer of a search.
type Outcome int8

const (
	// Unknown: the search stopped before deciding.
	Unknown Outcome = iota
	// Proved: the goal holds.
	Proved
	// Disproved: the goal does not hold.
	Disproved
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Proved:
		return "proved"
	case Disproved:
		return "disproved"
	}
	return "unknown"
}

// Reasons a search stopped with an Unknown outcome (see Stats.Stopped).
var (
	ErrMemory = errors.New("pns: node table full (mem budget)")
	ErrBudget = errors.New("pns: expansion budget spent")
)

// Inf is the proof or disproof number of a decided node.
const Inf uint32 = 1 << 30

// SmallBoard is the largest m,n,k board (in cells) on which every empty cell
// is a candidate move.
const SmallBoard = 64

// BytesPerNode is the memory charged per table entry (key, entry, map
// overhead and growth slack: a map slot is about 29 bytes, and a table
// just grown is half empty) against Options.MemMiB.
const BytesPerNode = 80

// Options configure a Searcher.
type Options struct {
	// MemMiB bounds the node table; 0 means 256.
	MemMiB int
	// MaxExpansions bounds the expansions of one Prove call; 0: no bound.
	MaxExpansions int64
}

// entry is one node of the DAG.
type entry struct {
	pn, dn   uint32
	forced   int32 // the only child move (blocking a threat), or -1
	best     int32 // expanded: the most-proving child move
	expanded bool
}

// step is one node of the current descent path.
type step struct {
	hash uint64
	move engine.Move // the move that led here (unused at the root)
}

// Stats describe the last Prove call.
type Stats struct {
	Expanded int64 // nodes expanded
	Total    int64 // nodes expanded since New, by every Prove call
	Nodes    int   // table entries
	Stopped  error // why an Unknown outcome stopped: ctx error, ErrMemory, ErrBudget
}

// Searcher proves positions of one rules. It is not safe for concurrent use.
type Searcher struct {
	rules    engine.Rules
	opt      Options
	maxNodes int
	all      bool // every legal move is a candidate

	table    map[uint64]entry
	pos      *engine.Position
	near     []int16 // m,n,k: stones within distance 2 of each cell
	attacker engine.Color
	goal     Goal
	path     []step
	moves    [][]engine.Move // candidate buffers per depth
	stats    Stats
	work     int    // children visited since the last look at ctx
	root     uint64 // hash of the last search's root
	total    int64  // expansions since New
	keepWins bool   // Solve: the NotLose search keeps the Win search's proofs
}

// checkWork: ctx is looked at after this many children visited (and every
// 256 iterations), so that wide boards stop in time.
const checkWork = 2048

// New returns a searcher for r.
func New(r engine.Rules, opt Options) (*Searcher, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("pns: %w", err)
	}
	if opt.MemMiB <= 0 {
		opt.MemMiB = 256
	}
	return &Searcher{
		rules:    r,
		opt:      opt,
		maxNodes: max(16, opt.MemMiB<<20/BytesPerNode),
		all:      r.Kind == engine.ConnectX || r.Cells() <= SmallBoard,
	}, nil
}

// Stats returns the figures of the last Prove call.
func (s *Searcher) Stats() Stats {
	s.stats.Nodes, s.stats.Total = len(s.table), s.total
	return s.stats
}

// MaxNodes is the table capacity in entries, from the memory budget.
func (s *Searcher) MaxNodes() int { return s.maxNodes }

// terminal returns the numbers of a decided node won by w (engine.Empty: drawn).
func (s *Searcher) terminal(w engine.Color) (pn, dn uint32) {
	if w == s.attacker || (w == engine.Empty && s.goal == NotLose) {
		return 0, Inf
	}
	return Inf, 0
}

// Prove searches pos (which must be open) for goal, the attacker being the
// side to move. It returns Unknown, with Stats().Stopped set, when ctx ends,
// the table is full or the expansion budget is spent.
func (s *Searcher) Prove(ctx context.Context, pos *engine.Position, goal Goal) (Outcome, error) {
	if pos.Rules() != s.rules {
		return Unknown, fmt.Errorf("pns: position of %s, searcher of %s", pos.Rules(), s.rules)
	}
	if pos.Result() != engine.Open {
		return Unknown, fmt.Errorf("pns: %w", engine.ErrGameOver)
	}
	keep := s.keepWins && s.table != nil && s.root == pos.Hash() && goal == NotLose && s.goal == Win
	s.reset(pos, goal, keep)
	root := pos.Hash()
	s.table[root] = entry{pn: 1, dn: 1, forced: -1}
	s.path = append(s.path[:0], step{hash: root, move: engine.NoMove})
	// The deadline is read from the clock as well as from ctx: under load
	// the timer behind ctx may fire late.
	deadline, hasDeadline := ctx.Deadline()
	for iter := 0; ; iter++ {
		e := s.table[root]
		if e.pn == 0 {
			return Proved, nil
		}
		if e.dn == 0 {
			return Disproved, nil
		}
		if s.work >= checkWork || iter&255 == 0 {
			s.work = 0
			if ctx.Err() != nil || hasDeadline && !time.Now().Before(deadline) {
				s.stats.Stopped = context.DeadlineExceeded
				if ctx.Err() != nil {
					s.stats.Stopped = ctx.Err()
				}
				return Unknown, nil
			}
		}
		if s.opt.MaxExpansions > 0 && s.stats.Expanded >= s.opt.MaxExpansions {
			s.stats.Stopped = ErrBudget
			return Unknown, nil
		}
		// Descend from the current node to the most-proving node.
		for {
			top := s.path[len(s.path)-1]
			e := s.table[top.hash]
			if !e.expanded || e.pn == 0 || e.dn == 0 {
				break // a leaf, or decided since (reached through another path)
			}
			m := engine.Move(e.best)
			s.play(m)
			s.path = append(s.path, step{hash: s.pos.Hash(), move: m})
		}
		if e := s.table[s.path[len(s.path)-1].hash]; e.expanded {
			// Decided already: only the ancestors need updating.
		} else if !s.expand() {
			s.stats.Stopped = ErrMemory
			s.unwind(1)
			return Unknown, nil
		}
		// Update ancestors; stop at the first node whose numbers hold.
		for len(s.path) > 1 {
			s.unwind(len(s.path) - 1)
			top := s.path[len(s.path)-1]
			old := s.table[top.hash]
			pn, dn, best := s.combine(top.hash, old)
			unchanged := pn == old.pn && dn == old.dn
			old.pn, old.dn, old.best = pn, dn, best
			s.table[top.hash] = old
			if unchanged {
				break
			}
		}
	}
}

// reset prepares the working position and an empty table.
//
// With keep (a NotLose search after a Win search of the same root), the
// proved wins stay: a win is a fortiori not a loss.
func (s *Searcher) reset(pos *engine.Position, goal Goal, keep bool) {
	s.pos = pos.Clone()
	s.goal, s.attacker, s.root = goal, pos.ToMove(), pos.Hash()
	s.stats = Stats{}
	switch {
	case s.table == nil:
		s.table = make(map[uint64]entry)
	case keep:
		for h, e := range s.table {
			if e.pn != 0 {
				delete(s.table, h)
			}
		}
	default:
		clear(s.table)
	}
	if !s.all {
		if len(s.near) != s.rules.Cells() {
			s.near = make([]int16, s.rules.Cells())
		} else {
			clear(s.near)
		}
		for _, m := range pos.Moves(nil) {
			s.touch(int(m), 1)
		}
	}
}

// touch adds d to the near count of the cells within distance 2 of cell.
func (s *Searcher) touch(cell int, d int16) {
	cols, rows := s.rules.Cols, s.rules.Rows
	r0, c0 := cell/cols, cell%cols
	for r := max(0, r0-2); r <= min(rows-1, r0+2); r++ {
		for c := max(0, c0-2); c <= min(cols-1, c0+2); c++ {
			s.near[r*cols+c] += d
		}
	}
}

func (s *Searcher) play(m engine.Move) {
	if !s.all {
		s.touch(s.pos.Cell(m), 1)
	}
	s.pos.Play(m)
}

// unwind undoes moves until the path has n nodes.
func (s *Searcher) unwind(n int) {
	for len(s.path) > n {
		m, _ := s.pos.Undo()
		if !s.all {
			s.touch(int(m), -1) // m,n,k: the move is the cell
		}
		s.path = s.path[:len(s.path)-1]
	}
}

// buf returns the candidate buffer of the current depth.
func (s *Searcher) buf() []engine.Move {
	d := len(s.path)
	for len(s.moves) <= d {
		s.moves = append(s.moves, nil)
	}
	return s.moves[d][:0]
}

// children appends the child moves of an expanded node to dst.
func (s *Searcher) children(dst []engine.Move, e entry) []engine.Move {
	if e.forced >= 0 {
		return append(dst, engine.Move(e.forced))
	}
	return Candidates(s.pos, s.near, dst)
}

// Candidates appends the candidate moves of pos to dst: every legal move on
// Connect-X and small m,n,k boards; on larger boards the empty cells within
// distance 2 of a stone (near, if not nil, holds the count of stones within
// distance 2 of each cell), or the centre on an empty board.
func Candidates(pos *engine.Position, near []int16, dst []engine.Move) []engine.Move {
	r := pos.Rules()
	if r.Kind == engine.ConnectX || r.Cells() <= SmallBoard || pos.Result() != engine.Open {
		return pos.LegalMoves(dst)
	}
	if pos.Ply() == 0 {
		return append(dst, engine.Move(r.Rows/2*r.Cols+r.Cols/2))
	}
	// Bounding box of the stones, grown by 2.
	r0, r1, c0, c1 := r.Rows, -1, r.Cols, -1
	for _, m := range pos.Moves(nil) {
		rr, cc := int(m)/r.Cols, int(m)%r.Cols
		r0, r1, c0, c1 = min(r0, rr), max(r1, rr), min(c0, cc), max(c1, cc)
	}
	r0, r1, c0, c1 = max(0, r0-2), min(r.Rows-1, r1+2), max(0, c0-2), min(r.Cols-1, c1+2)
	for rr := r0; rr <= r1; rr++ {
		for cc := c0; cc <= c1; cc++ {
			if pos.At(rr, cc) != engine.Empty {
				continue
			}
			cell := rr*r.Cols + cc
			if near != nil {
				if near[cell] > 0 {
					dst = append(dst, engine.Move(cell))
				}
				continue
			}
			if hasStoneNear(pos, rr, cc) {
				dst = append(dst, engine.Move(cell))
			}
		}
	}
	return dst
}

func hasStoneNear(pos *engine.Position, r0, c0 int) bool {
	r := pos.Rules()
	for rr := max(0, r0-2); rr <= min(r.Rows-1, r0+2); rr++ {
		for cc := max(0, c0-2); cc <= min(r.Cols-1, c0+2); cc++ {
			if pos.At(rr, cc) != engine.Empty {
				return true
			}
		}
	}
	return false
}

// childHash is the hash of the position after the side to move plays m.
func (s *Searcher) childHash(h uint64, m engine.Move) uint64 {
	return h ^ engine.ZobristKey(s.pos.Cell(m), s.pos.ToMove()) ^ engine.SideKey
}

// orNode tells whether the attacker moves at the working position.
func (s *Searcher) orNode() bool { return s.pos.ToMove() == s.attacker }

// combine computes the numbers of the expanded node h from its children,
// and its most-proving child: at an OR node the child of least proof
// number, at an AND node the child of least disproof number (ties: the
// larger other number).
func (s *Searcher) combine(h uint64, e entry) (pn, dn uint32, best int32) {
	moves := s.children(s.buf(), e)
	s.moves[len(s.path)] = moves
	s.work += len(moves)
	minV, minW, sum := Inf+1, uint32(0), uint32(0)
	or := s.orNode()
	best = -1
	for _, m := range moves {
		c, ok := s.table[s.childHash(h, m)]
		if !ok {
			c = entry{pn: 1, dn: 1}
		}
		v, w := c.dn, c.pn
		if or {
			v, w = c.pn, c.dn
		}
		if v < minV || (v == minV && w > minW) {
			minV, minW, best = v, w, int32(m)
		}
		sum = addSat(sum, w)
	}
	minV = min(minV, Inf)
	if or {
		return minV, sum, best
	}
	return sum, minV, best
}

func addSat(a, b uint32) uint32 {
	if a >= Inf || b >= Inf {
		return Inf
	}
	return min(a+b, Inf-1)
}

// expand creates the children of the leaf at the end of the path and sets
// its numbers; false when the table has no room.
func (s *Searcher) expand() bool {
	top := s.path[len(s.path)-1]
	e := s.table[top.hash]
	s.stats.Expanded++
	s.total++
	me := s.pos.ToMove()
	opp := me.Other()
	moves := Candidates(s.pos, s.near, s.buf())
	s.moves[len(s.path)] = moves
	s.work += 4 * len(moves)
	// An immediate win decides the node; threats restrict the children.
	threat, threats := engine.NoMove, 0
	for _, m := range moves {
		cell := s.pos.Cell(m)
		if s.pos.WinsAt(cell, me) {
			e.pn, e.dn = s.terminal(me)
			e.expanded = true
			s.table[top.hash] = e
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
		e.pn, e.dn = s.terminal(opp)
		e.expanded = true
		s.table[top.hash] = e
		return true
	}
	e.forced = -1
	if threats == 1 {
		e.forced = int32(threat)
		moves = append(moves[:0], threat)
	}
	if len(s.table)+len(moves) > s.maxNodes {
		return false
	}
	full := s.pos.Ply()+1 == s.rules.Cells()
	mover := me == s.attacker
	for _, m := range moves {
		ch := s.childHash(top.hash, m)
		if _, ok := s.table[ch]; ok {
			continue
		}
		c := entry{forced: -1}
		if full {
			c.pn, c.dn = s.terminal(engine.Empty)
		} else {
			q := uint32(Quality(s.pos, s.pos.Cell(m), me))
			good, bad := 1+q, 1+(QualityMax-q)
			if mover {
				c.pn, c.dn = bad, good
			} else {
				c.pn, c.dn = good, bad
			}
		}
		s.table[ch] = c
	}
	e.expanded = true
	s.table[top.hash] = e
	e.pn, e.dn, e.best = s.combine(top.hash, e)
	s.table[top.hash] = e
	return true
}

// QualityMax is the largest value of Quality.
const QualityMax = 8

// Quality rates a stone of c on the empty cell from 0 to QualityMax by the
// windows of K cells through it: windows free of the opponent count for the
// stones of c they would hold (attack), windows holding only opponent stones
// for those stones (defence); fuller windows weigh much more.
func Quality(pos *engine.Position, cell int, c engine.Color) int {
	return min(QualityMax, bits.Len32(uint32(Score(pos, cell, c))>>1))
}

// tierWeight weights a window by the stones it lacks (tier 1: one more
// stone completes it).
func tierWeight(tier int) int {
	switch tier {
	case 0, 1:
		return 256
	case 2:
		return 32
	case 3:
		return 6
	case 4:
		return 2
	}
	return 1
}

// Score is the raw window score behind Quality.
func Score(pos *engine.Position, cell int, c engine.Color) int {
	r := pos.Rules()
	k := r.K
	r0, c0 := cell/r.Cols, cell%r.Cols
	attack, defence := 0, 0
	var line [2*engine.MaxSide + 1]engine.Color
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		// Cells from -(k-1) to k-1 along the direction, within the board.
		lo, hi := 0, 0
		for i := 1; i < k; i++ {
			rr, cc := r0-i*dr, c0-i*dc
			if rr < 0 || rr >= r.Rows || cc < 0 || cc >= r.Cols {
				break
			}
			lo = i
		}
		for i := 1; i < k; i++ {
			rr, cc := r0+i*dr, c0+i*dc
			if rr < 0 || rr >= r.Rows || cc < 0 || cc >= r.Cols {
				break
			}
			hi = i
		}
		n := lo + hi + 1
		if n < k {
			continue
		}
		for i := 0; i < n; i++ {
			off := i - lo
			line[i] = pos.At(r0+off*dr, c0+off*dc)
		}
		line[lo] = engine.Empty
		own, opp := 0, 0
		for i := 0; i < n; i++ {
			switch line[i] {
			case c:
				own++
			case engine.Empty:
			default:
				opp++
			}
			if i >= k {
				switch line[i-k] {
				case c:
					own--
				case engine.Empty:
				default:
					opp--
				}
			}
			if i >= k-1 {
				switch {
				case opp == 0:
					attack += tierWeight(k - own - 1)
				case own == 0:
					defence += tierWeight(k - opp)
				}
			}
		}
	}
	return attack + defence/2
}

// Solve returns the value of pos for the side to move: 1 win, 0 draw, -1
// loss; known is false when the search stopped first (see Stats).
func (s *Searcher) Solve(ctx context.Context, pos *engine.Position) (value int, known bool, err error) {
	s.keepWins = true
	defer func() { s.keepWins = false }()
	o, err := s.Prove(ctx, pos, Win)
	if err != nil || o == Unknown {
		return 0, false, err
	}
	if o == Proved {
		return 1, true, nil
	}
	if o, err = s.Prove(ctx, pos, NotLose); err != nil || o == Unknown {
		return 0, false, err
	}
	if o == Proved {
		return 0, true, nil
	}
	return -1, true, nil
}

// Best returns the best root move of the last Prove call: a proved move when
// the root is proved (proved true), else the child with the smallest
// proof/disproof ratio that is not disproved; NoMove when every child is
// disproved or the root was never expanded.
func (s *Searcher) Best() (m engine.Move, proved bool) {
	if s.pos == nil {
		return engine.NoMove, false
	}
	s.unwind(1)
	h := s.pos.Hash()
	e, ok := s.table[h]
	if !ok || !e.expanded {
		return engine.NoMove, false
	}
	moves := s.children(s.buf(), e)
	s.moves[len(s.path)] = moves
	best := engine.NoMove
	var bp, bd uint32 = Inf, 1
	for _, mv := range moves {
		c, ok := s.table[s.childHash(h, mv)]
		if !ok {
			continue
		}
		if c.pn == 0 {
			return mv, true
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
