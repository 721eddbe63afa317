package pns

import "github.com/kinrow/kinrow/engine"

// Candidates appends the candidate moves of pos to dst: every legal move on
// Connect-X and small m,n,k boards; on larger boards the empty cells within
// distance 2 of a stone (near, if not nil, holds the count of stones within
// distance 2 of each cell), or the centre on an empty board.
func Candidates(pos *engine.Position, near []int16, dst []engine.Move) []engine.Move {
	dst, _ = candidates(pos, near, dst, nil)
	return dst
}

// candidates is Candidates with scratch space for the moves played
// (returned for reuse), so that a searcher allocates nothing.
func candidates(pos *engine.Position, near []int16, dst, played []engine.Move) ([]engine.Move, []engine.Move) {
	r := pos.Rules()
	if r.Gravity() || r.Cells() <= SmallBoard || pos.Result() != engine.Open {
		return pos.LegalMoves(dst), played
	}
	if pos.Ply() == 0 {
		return append(dst, engine.Move(r.Rows/2*r.Cols+r.Cols/2)), played
	}
	// Bounding box of the stones, grown by 2.
	r0, r1, c0, c1 := r.Rows, -1, r.Cols, -1
	played = pos.Moves(played[:0])
	for _, m := range played {
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
	return dst, played
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
