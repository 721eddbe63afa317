package pns

import "github.com/kinrow/kinrow/engine"

// Quick is a move chosen without search.
type Quick struct {
	Move engine.Move
	// Forced: the move wins at once or blocks the opponent's only
	// immediate win, so no search is needed.
	Forced bool
}

// QuickMove picks a move of the side to move of the open position pos by
// threats alone: a winning move, else the block of an opponent's immediate
// win, else the candidate with the best window Score (attack and defence).
// buf is scratch space for the candidates.
func QuickMove(pos *engine.Position, buf []engine.Move) Quick {
	me := pos.ToMove()
	opp := me.Other()
	moves := Candidates(pos, nil, buf[:0])
	if len(moves) == 0 {
		moves = pos.LegalMoves(moves)
	}
	block, blocks := engine.NoMove, 0
	best, bestScore := engine.NoMove, -1
	for _, m := range moves {
		cell := pos.Cell(m)
		if pos.WinsAt(cell, me) {
			return Quick{Move: m, Forced: true}
		}
		if pos.WinsAt(cell, opp) {
			block = m
			blocks++
		}
		if sc := Score(pos, cell, me); sc > bestScore {
			best, bestScore = m, sc
		}
	}
	if blocks > 0 {
		return Quick{Move: block, Forced: blocks == 1}
	}
	return Quick{Move: best}
}
