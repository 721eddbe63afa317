package search

import "github.com/kinrow/kinrow/bots/gomoku/pattern"

// Widths: at most this many moves are searched at an inner node (10 and
// 16 beat 14 and 20 by +69 ± 48 Elo together with the later soft limit,
// 200 games at 100 ms; 20 and 28 were even).
const (
	maxWidth    = 10
	pvWidth     = 16
	leafVCFBudg = 120
)

// pvs is the negamax principal variation search of the side to move.
func (s *Searcher) pvs(depth, alpha, beta, ply int, pv bool) int {
	s.nodes++
	s.checkTime()
	if s.stop {
		return 0
	}
	b := s.b
	if b.Full() {
		return 0
	}
	me := b.ToMove()
	op := me.Other()
	// Mate distance pruning.
	if a := -Win + ply; alpha < a {
		alpha = a
		if a >= beta {
			return a
		}
	}
	key := b.Hash()
	ttMove := -1
	if e := s.probe(key); e != nil {
		ttMove = int(e.move)
		if !pv && int(e.depth) >= depth {
			v := int(e.score)
			if v >= winZone {
				v -= ply
			} else if v <= -winZone {
				v += ply
			}
			switch {
			case e.flag == flagExact,
				e.flag == flagLower && v >= beta,
				e.flag == flagUpper && v <= alpha:
				return v
			}
		}
	}

	// Scan the candidates: fives, threats.
	ms := s.moves[ply][:0]
	ks := s.keys[ply][:0]
	opFives, opFive := 0, -1
	myFlex4, opFlex4 := false, false
	myFours := 0
	for _, p := range b.Cells() {
		if !b.Empty(p) || !b.Near(p) {
			continue
		}
		a, d := b.P4(me, p), b.P4(op, p)
		if a == pattern.Five {
			return Win - ply - 1
		}
		if d == pattern.Five {
			opFives++
			opFive = p
		}
		if a == pattern.Flex4 {
			myFlex4 = true
		}
		if a >= pattern.Block4 && a != pattern.Forbidden {
			myFours++
		}
		if d == pattern.Flex4 {
			opFlex4 = true
		}
		if a != pattern.Forbidden {
			ms = append(ms, p)
		}
	}
	switch {
	case opFives > 1:
		return -Win + ply + 2
	case opFives == 1:
		if b.P4(me, opFive) == pattern.Forbidden {
			return -Win + ply + 2
		}
		ms = append(ms[:0], opFive)
		ks = append(ks, 0)
		depth++ // a forced reply costs no depth
	case myFlex4:
		return Win - ply - 3
	case opFlex4:
		// Only our fours and the cells that stop the three.
		n := 0
		for _, p := range ms {
			if b.P4(me, p) >= pattern.Block4 || b.P4(op, p) >= pattern.Block4 {
				ms[n] = p
				n++
			}
		}
		ms = ms[:n]
		if n == 0 {
			return -Win + ply + 4
		}
	}
	if len(ms) == 0 {
		return 0
	}
	if depth <= 0 || ply >= maxPly {
		won := false
		if myFours > 0 && opFives == 0 {
			won = s.v.VCF(s.ctx, me, 12, leafVCFBudg) >= 0
			s.nodes += s.v.Nodes()
		}
		if won {
			return Win - ply - 5
		}
		return clampEval(b.Eval())
	}
	if len(ks) == 0 {
		for _, p := range ms {
			k := s.orderKey(me, p)
			if p == ttMove {
				k = 1 << 30
			}
			ks = append(ks, int32(min(k, 1<<30)))
		}
		sortMoves(ms, ks)
		w := maxWidth
		if pv {
			w = pvWidth
		}
		if len(ms) > w && !opFlex4 {
			ms, ks = ms[:w], ks[:w]
		}
	}
	s.moves[ply], s.keys[ply] = ms, ks

	best, bestMove, flag := -Win, -1, flagUpper
	for i, p := range ms {
		quiet := b.P4(me, p) < pattern.Flex3 && b.P4(op, p) < pattern.Flex3
		b.Play(p)
		var v int
		if i == 0 {
			v = -s.pvs(depth-1, -beta, -alpha, ply+1, pv)
		} else {
			red := 0
			if quiet && depth >= 3 && i >= 4 {
				red = 1
				if i >= 10 {
					red = 2
				}
			}
			v = -s.pvs(depth-1-red, -alpha-1, -alpha, ply+1, false)
			if v > alpha && red > 0 && !s.stop {
				v = -s.pvs(depth-1, -alpha-1, -alpha, ply+1, false)
			}
			if v > alpha && v < beta && pv && !s.stop {
				v = -s.pvs(depth-1, -beta, -alpha, ply+1, true)
			}
		}
		b.Undo()
		if s.stop {
			return 0
		}
		if v > best {
			best, bestMove = v, p
			if v > alpha {
				alpha, flag = v, flagExact
				if v >= beta {
					flag = flagLower
					s.hist[me][p] += int32(depth * depth)
					break
				}
			}
		}
	}
	s.store(key, depth, best, flag, bestMove, ply)
	return best
}

func clampEval(v int) int { return max(-maxEval, min(maxEval, v)) }

// sortMoves sorts ms by ks, highest first.
func sortMoves(ms []int, ks []int32) {
	for i := 1; i < len(ms); i++ {
		m, k := ms[i], ks[i]
		j := i
		for ; j > 0 && ks[j-1] < k; j-- {
			ms[j], ks[j] = ms[j-1], ks[j-1]
		}
		ms[j], ks[j] = m, k
	}
}
