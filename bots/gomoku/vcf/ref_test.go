package vcf

import "github.com/kinrow/kinrow/engine"

// refVCF is an independent, exhaustive VCF on the engine's own board (its
// win test and legality, nothing of package pattern): attacker a is to move
// on pos; every legal move of a's that leaves a winning cell is tried; the
// defender blocks the single winning cell (any other move loses) unless it
// has a five of its own. depth counts a's fours.
func refVCF(pos *engine.Position, a engine.Color, depth int) bool {
	r := pos.Rules()
	n := r.Cells()
	d := a.Other()
	wins := func(c engine.Color, dst []int) []int { return refWins(pos, c, dst) }
	if len(wins(a, nil)) > 0 {
		return true
	}
	dw := wins(d, nil)
	if len(dw) > 1 {
		return false
	}
	if depth <= 0 {
		return false
	}
	try := func(m int) bool { return refTry(pos, a, m, depth) }
	if len(dw) == 1 {
		return try(dw[0])
	}
	for m := 0; m < n; m++ {
		if pos.At(m/r.Cols, m%r.Cols) == engine.Empty && try(m) {
			return true
		}
	}
	return false
}

// refWins appends the empty cells where c would complete a winning line.
func refWins(pos *engine.Position, c engine.Color, dst []int) []int {
	r := pos.Rules()
	for e := 0; e < r.Cells(); e++ {
		if pos.At(e/r.Cols, e%r.Cols) == engine.Empty && pos.WinsAt(e, c) {
			dst = append(dst, e)
		}
	}
	return dst
}

// refTry reports whether a's four on m (a legal move) wins by refVCF: the
// defender, without a five of its own, must block a's single winning cell.
func refTry(pos *engine.Position, a engine.Color, m, depth int) bool {
	if !pos.Legal(engine.Move(m)) {
		return false
	}
	if pos.WinsAt(m, a) {
		return true
	}
	pos.Play(engine.Move(m))
	defer pos.Undo()
	w := refWins(pos, a, nil)
	if len(w) == 0 {
		return false
	}
	if len(refWins(pos, a.Other(), nil)) > 0 {
		return false // the defender takes its five first
	}
	if len(w) > 1 {
		return true
	}
	pos.Play(engine.Move(w[0]))
	defer pos.Undo()
	return refVCF(pos, a, depth-1)
}
