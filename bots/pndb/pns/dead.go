package pns

import "github.com/kinrow/kinrow/engine"

// Dead positions: a side can only win on a window (K cells in a row) free
// of the opponent's stones, with no more empty cells than the stones the
// side has left to play (a live window). When the attacker has none left, its Win is
// disproved; when the defender has none, the attacker's NotLose is proved.
// At each expansion the searcher counts the windows of the side that
// matters to the goal (the attacker for Win, the defender for NotLose) and
// how many of them each cell lies on: the node is decided when there are
// none, and a child is decided when the move fills the last of them. Both
// are exact (a draw for the goal's purpose), unlike the heuristic numbers.

// deadMaxCells is the largest board on which the windows are counted at
// every expansion (a scan of about 4·cells·K cells): on larger ones a side
// runs out of windows only late in a game, and the scan would cost more
// than it saves.
const deadMaxCells = SymmetryMaxCells

// newCover returns the scratch space of liveWindows on boards small enough
// for the dead-position check, nil on the others.
func newCover(r engine.Rules) []int32 {
	if r.Cells() > deadMaxCells {
		return nil
	}
	return make([]int32, r.Cells())
}

// liveWindows counts the live windows of c in pos (free of the opponent's
// stones, no more empty cells than c has stones left to play) and adds, for
// each cell, the number of them through it to cover (cleared first, one
// slot a cell). A move of the opponent leaves c's stones left unchanged, so
// it kills exactly the live windows through its cell.
func liveWindows(pos *engine.Position, c engine.Color, cover []int32) int {
	clear(cover)
	r := pos.Rules()
	k, rows, cols := r.K, r.Rows, r.Cols
	opp := c.Other()
	empty := r.Cells() - pos.Ply()
	left := empty / 2 // stones c has left to play
	if pos.ToMove() == c {
		left = (empty + 1) / 2
	}
	n := 0
	for d := 0; d < 4; d++ {
		dr, dc := engine.Direction(d)
		for r0 := 0; r0 < rows; r0++ {
			r1 := r0 + (k-1)*dr
			if r1 < 0 || r1 >= rows {
				continue
			}
			for c0 := 0; c0 < cols; c0++ {
				c1 := c0 + (k-1)*dc
				if c1 < 0 || c1 >= cols {
					continue
				}
				free, holes := true, 0
				for i := 0; i < k; i++ {
					switch pos.At(r0+i*dr, c0+i*dc) {
					case opp:
						free = false
					case engine.Empty:
						holes++
					}
				}
				if !free || holes > left {
					continue
				}
				n++
				for i := 0; i < k; i++ {
					cover[(r0+i*dr)*cols+c0+i*dc]++
				}
			}
		}
	}
	return n
}

// deadSide is the side whose windows decide the goal: the attacker's for
// Win, the defender's for NotLose.
func (s *Searcher) deadSide() engine.Color {
	if s.goal == Win {
		return s.attacker
	}
	return s.attacker.Other()
}

// drawDepth is the depth given to a dead node: the plies left until the
// board is full.
func (s *Searcher) drawDepth(ply int) uint16 {
	return uint16(max(0, s.rules.Cells()-ply))
}
