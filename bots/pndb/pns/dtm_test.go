package pns

import "github.com/kinrow/kinrow/engine"

// exact is the game-theoretic value of a position for the side to move
// with its distance: v = 1 wins in d plies (its fastest win), -1 loses in d
// plies (its slowest loss), 0 draw.
type exact struct{ v, d int }

// better tells whether a is better than b for the side to move.
func (a exact) better(b exact) bool {
	if a.v != b.v {
		return a.v > b.v
	}
	switch a.v {
	case 1:
		return a.d < b.d
	case -1:
		return a.d > b.d
	}
	return false
}

// solveExact is a plain memoised negamax over every legal move, independent
// of the searcher: the reference for the depth tests.
func solveExact(p *engine.Position, memo map[uint64]exact) exact {
	if r, ok := memo[p.Hash()]; ok {
		return r
	}
	best := exact{v: -2}
	for _, m := range p.LegalMoves(nil) {
		r := moveExact(p, m, memo)
		if best.v == -2 || r.better(best) {
			best = r
		}
	}
	memo[p.Hash()] = best
	return best
}

// moveExact is the exact value, for the side to move, of playing m.
func moveExact(p *engine.Position, m engine.Move, memo map[uint64]exact) exact {
	me := p.ToMove()
	p.Play(m)
	defer p.Undo()
	switch res := p.Result(); {
	case res == engine.Draw:
		return exact{0, 1}
	case res != engine.Open:
		if res.Winner() == me {
			return exact{1, 1}
		}
		return exact{-1, 1}
	}
	c := solveExact(p, memo)
	return exact{-c.v, c.d + 1}
}
