package sdk

import "github.com/kinrow/kinrow/engine"

// Valuer returns the score of q for its side to move (q's game is not
// over) and whether the score is known; a solving Solver's exact value.
type Valuer func(q *engine.Position) (score int, known bool, err error)

// AnalyzeMoves scores every move of pos for a Solve request with Analyze
// set (botapi.SolveReply's Scores and Valid): each legal move's score for
// the side to move in pos, in move order — 0 for a move that draws at
// once, win for one that wins at once, minus value of the position it
// leads to otherwise. Under gravity a full column is listed too, as not
// valid; a cell that is not a legal move is left out. ok is false, and the
// lists are to be dropped, when a move's position could not be valued (an
// error, or not known: the request ran out of time or memory).
func AnalyzeMoves(pos *engine.Position, win int, value Valuer) (scores []int, valid []bool, ok bool) {
	r := pos.Rules()
	n := r.MoveRange()
	q := pos.Clone()
	for m := engine.Move(0); int(m) < n; m++ {
		if !q.Legal(m) {
			if r.Gravity() { // a full column is listed, as not valid
				scores, valid = append(scores, 0), append(valid, false)
			}
			continue
		}
		q.Play(m)
		mv := 0
		switch q.Result() {
		case engine.Open:
			cv, known, err := value(q)
			if err != nil || !known {
				return nil, nil, false
			}
			mv = -cv
		case engine.Draw:
		default: // the move wins at once
			mv = win
		}
		q.Undo()
		scores, valid = append(scores, mv), append(valid, true)
	}
	return scores, valid, true
}
