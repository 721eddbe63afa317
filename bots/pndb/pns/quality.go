package pns

import (
	"math/bits"

	"github.com/kinrow/kinrow/engine"
)

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
