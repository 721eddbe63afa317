package search

import (
	"context"
	"runtime"
	"time"

	"github.com/kinrow/kinrow/bots/gomoku/board"
	"github.com/kinrow/kinrow/bots/gomoku/pattern"
	"github.com/kinrow/kinrow/bots/gomoku/vcf"
	"github.com/kinrow/kinrow/bots/pndb/dbsearch"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// Scores.
const (
	Win     = 30000
	winZone = Win - 1000
	maxPly  = 96
	maxEval = 20000
)

// Options tune a Searcher; the zero value is the default.
type Options struct {
	// TTBits is log2 of the transposition table's entries (default 20).
	TTBits int
	// MaxDepth bounds the iterative deepening (default 40).
	MaxDepth int
	// NoDB turns off dbsearch at the root.
	NoDB bool
}

type entry struct {
	key   uint64
	score int32
	move  int16
	depth int8
	flag  uint8
}

const (
	flagExact = 1
	flagLower = 2
	flagUpper = 3
)

// Progress is what the search reports after each iteration.
type Progress struct {
	Depth int
	Score int
	Best  engine.Move
	Nodes int64
}

// Searcher plays one game of m,n,5 rules; not safe for concurrent use.
type Searcher struct {
	rules engine.Rules
	opt   Options
	b     *board.Board
	v     *vcf.Searcher
	db    *dbsearch.Searcher
	tt    []entry
	hist  [2][]int32

	nodes      int64
	ticks      uint32
	stop       bool
	hard, soft time.Time
	ctx        context.Context

	moves     [maxPly + 2][]int
	keys      [maxPly + 2][]int32
	root      []rootMove
	gameMoves []engine.Move
}

type rootMove struct {
	p     int
	score int
}

// New returns a Searcher for rules with K = 5 on m,n boards.
func New(r engine.Rules, opt Options) *Searcher {
	if opt.TTBits == 0 {
		opt.TTBits = 20
	}
	if opt.MaxDepth == 0 {
		opt.MaxDepth = 40
	}
	b := board.New(r)
	s := &Searcher{rules: r, opt: opt, b: b, v: vcf.New(b), tt: make([]entry, 1<<opt.TTBits)}
	// Touch every page of the table now, so that the first moves of a
	// game, on the clock, do not pay its page faults.
	for i := 0; i < len(s.tt); i += 4096 / 16 {
		s.tt[i].flag = 0
	}
	s.hist[0] = make([]int32, b.Size())
	s.hist[1] = make([]int32, b.Size())
	for i := range s.moves {
		s.moves[i] = make([]int, 0, 128)
		s.keys[i] = make([]int32, 0, 128)
	}
	if !opt.NoDB {
		if db, err := dbsearch.New(r, dbsearch.Options{}); err == nil {
			s.db = db
		}
	}
	return s
}

// WarmUp readies s for pos's game before its clock starts: a search of
// warmUp touches the search's code, stacks and tables (the first move of
// a fresh process was the one most often late on a starved machine), and
// a garbage collection clears the game's set-up garbage, so the first
// moves start on a heap whose next collection is far away.
func (s *Searcher) WarmUp(ctx context.Context, pos *engine.Position) {
	if pos.Result() == engine.Open {
		wctx, cancel := context.WithTimeout(ctx, warmUp)
		s.BestMove(wctx, pos, nil)
		cancel()
	}
	runtime.GC()
}

// warmUp is the length of WarmUp's search.
const warmUp = 20 * time.Millisecond

// Board returns the searcher's board (tests and benchmarks).
func (s *Searcher) Board() *board.Board { return s.b }

// sync makes the board hold pos's stones.
func (s *Searcher) sync(pos *engine.Position) {
	moves := pos.Moves(s.gameMoves[:0])
	s.gameMoves = moves
	// Undo down to the common prefix, then play the rest.
	common := 0
	for common < len(moves) && common < s.b.Ply() && s.b.Move(s.histAt(common)) == moves[common] {
		common++
	}
	for s.b.Ply() > common {
		s.b.Undo()
	}
	for _, m := range moves[common:] {
		s.b.Play(s.b.Index(m))
	}
}

func (s *Searcher) histAt(i int) int { return s.b.History(i) }

// BestMove returns the move to play in pos before ctx's deadline.
func (s *Searcher) BestMove(ctx context.Context, pos *engine.Position, report func(Progress)) engine.Move {
	start := time.Now()
	avail := 5 * time.Second
	if d, ok := ctx.Deadline(); ok {
		avail = time.Until(d)
	}
	s.ctx = ctx
	reserve := sdk.Reserve(avail)
	s.hard = start.Add(avail - reserve)
	s.soft = start.Add((avail - reserve) * 3 / 4)
	s.stop = false
	s.nodes = 0
	s.sync(pos)
	b := s.b
	me := pos.ToMove()

	// Root candidates, checked with the engine's judge.
	legal := func(p int) bool { return pos.Legal(b.Move(p)) }
	cands := b.Candidates(s.moves[0][:0])
	s.root = s.root[:0]
	for _, p := range cands {
		if legal(p) {
			s.root = append(s.root, rootMove{p: p})
		}
	}
	if len(s.root) == 0 { // nothing near the stones is legal
		for _, m := range pos.LegalMoves(nil) {
			s.root = append(s.root, rootMove{p: b.Index(m)})
		}
		if len(s.root) == 0 {
			return engine.NoMove
		}
	}
	s.orderRoot(me)
	done := func(p, score, depth int) engine.Move {
		if report != nil {
			report(Progress{Depth: depth, Score: score, Best: b.Move(p), Nodes: s.nodes + s.v.Nodes()})
		}
		return b.Move(p)
	}
	// Forced: a five, the block of the opponent's five.
	for _, r := range s.root {
		if b.P4(me, r.p) == pattern.Five {
			return done(r.p, Win-1, 1)
		}
	}
	for _, r := range s.root {
		if b.P4(me.Other(), r.p) == pattern.Five {
			return done(r.p, 0, 1)
		}
	}
	// Threat search: our VCF, then VCT.
	var cancels []context.CancelFunc
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	budget := func(frac int) context.Context {
		c, cancel := context.WithDeadline(ctx, start.Add(avail*time.Duration(frac)/100))
		cancels = append(cancels, cancel)
		return c
	}
	if p := s.v.VCF(budget(8), me, 30, 20000); p >= 0 && legal(p) {
		return done(p, Win-3, 1)
	}
	if p := s.v.VCT(budget(15), me, 5, 10000); p >= 0 && legal(p) {
		return done(p, Win-5, 1)
	}
	if s.db != nil && avail >= 400*time.Millisecond {
		if r, err := s.db.Search(budget(30), pos, me); err == nil && r.Win && r.First >= 0 {
			if m := engine.Move(r.First); pos.Legal(m) {
				return done(b.Index(m), Win-7, 1)
			}
		}
	}
	// The opponent's VCF: keep only the moves that stop it.
	if p := s.v.VCF(budget(20), me.Other(), 30, 10000); p >= 0 {
		kept := s.root[:0:0]
		for _, r := range s.root {
			if time.Now().After(start.Add(avail * 3 / 10)) {
				kept = append(kept, r) // not examined: kept
				continue
			}
			b.Play(r.p)
			q := s.v.VCF(budget(30), me.Other(), 30, 1500)
			b.Undo()
			if q < 0 {
				kept = append(kept, r)
			}
		}
		if len(kept) > 0 {
			s.root = append(s.root[:0], kept...)
		}
	}
	if len(s.root) == 1 {
		return done(s.root[0].p, 0, 1)
	}
	best, bestScore, depthDone := s.root[0].p, 0, 0
	for depth := 1; depth <= s.opt.MaxDepth; depth++ {
		p, score, ok := s.rootSearch(depth)
		if ok || p >= 0 {
			best, bestScore = p, score
		}
		if !ok {
			break
		}
		depthDone = depth
		if report != nil {
			report(Progress{Depth: depth, Score: score, Best: b.Move(best), Nodes: s.nodes})
		}
		if score >= winZone || score <= -winZone || time.Now().After(s.soft) {
			break
		}
	}
	return done(best, bestScore, depthDone)
}

// orderRoot sorts the root moves by their cells' values.
func (s *Searcher) orderRoot(me engine.Color) {
	for i := range s.root {
		s.root[i].score = s.orderKey(me, s.root[i].p)
	}
	sortRoot(s.root)
}

// sortRoot sorts by score, highest first, keeping the order of equals.
func sortRoot(rs []rootMove) {
	for i := 1; i < len(rs); i++ {
		r := rs[i]
		j := i
		for ; j > 0 && rs[j-1].score < r.score; j-- {
			rs[j] = rs[j-1]
		}
		rs[j] = r
	}
}

// orderKey is a cell's move-ordering value for the side me.
func (s *Searcher) orderKey(me engine.Color, p int) int {
	b := s.b
	a, d := b.P4(me, p), b.P4(me.Other(), p)
	k := int(b.Score(me, p)) + int(b.Score(me.Other(), p))*4/5
	if a == pattern.Forbidden {
		k = int(b.Score(me.Other(), p)) * 4 / 5
	}
	rank := max(rankOf(a), rankOf(d)-1)
	return rank<<20 + k<<4 + int(s.hist[me][p]>>4&15)
}

func rankOf(c pattern.Pattern4) int {
	switch {
	case c >= pattern.Block4Flex3:
		return int(c)
	case c >= pattern.Flex3x2:
		return int(c) - 1
	}
	return 0
}

// rootSearch searches every root move to depth; ok is false when time ran
// out, p the best move proven so far in this iteration (or -1).
func (s *Searcher) rootSearch(depth int) (p, score int, ok bool) {
	alpha, beta := -Win, Win
	best := -1
	for i := range s.root {
		r := &s.root[i]
		s.b.Play(r.p)
		var v int
		if i == 0 {
			v = -s.pvs(depth-1, -beta, -alpha, 1, true)
		} else {
			v = -s.pvs(depth-1, -alpha-1, -alpha, 1, false)
			if v > alpha && !s.stop {
				v = -s.pvs(depth-1, -beta, -alpha, 1, true)
			}
		}
		s.b.Undo()
		if s.stop {
			return best, alpha, false
		}
		r.score = v // exact for the best, a bound for the others
		if v > alpha || i == 0 {
			alpha, best = v, r.p
		}
	}
	// The best first, the rest by their order keys of this iteration.
	for i := range s.root {
		if s.root[i].p == best {
			s.root[0], s.root[i] = s.root[i], s.root[0]
		}
	}
	sortRoot(s.root[1:])
	return best, alpha, true
}

// checkTime stops the search past the hard limit, looking at the clock
// every 16 calls (a node with its leaf VCF can take tens of microseconds).
func (s *Searcher) checkTime() {
	s.ticks++
	if s.ticks&15 == 0 && (time.Now().After(s.hard) || s.ctx.Err() != nil) {
		s.stop = true
	}
}

func (s *Searcher) probe(key uint64) *entry {
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key == key {
		return e
	}
	return nil
}

func (s *Searcher) store(key uint64, depth, score, flag, move, ply int) {
	if score >= winZone {
		score += ply
	} else if score <= -winZone {
		score -= ply
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key == key && int(e.depth) > depth && flag != flagExact {
		return
	}
	*e = entry{key: key, score: int32(score), move: int16(move), depth: int8(depth), flag: uint8(flag)}
}
