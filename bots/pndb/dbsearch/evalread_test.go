package dbsearch

import (
	"slices"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// TestEvalGainRead: on random m,n,k and Connect-X positions (random and clustered games,
// both sides as attacker) in the state expand calls evalGain in (no line,
// no winning cell of the attacker's, at most one of the defender's, then
// only its block is tried), evalGainRead (evalGainReadGravity) finds on
// every playable cell exactly the threat that playing the stone finds
// (evalGainPlayed): kind, gain and costs in order, or none.
func TestEvalGainRead(t *testing.T) {
	for _, rs := range []string{"mnk:9x9x5", "mnk:6x6x4", "mnk:5x5x3", "mnk:4x4x2", "gomoku", "mnk:12x12x6", "connect4", "connectx:5x6x4", "connectx:4x5x3", "connectx:9x9x5", "connectx:5x5x2"} {
		t.Run(rs, func(t *testing.T) {
			r, s, rng := defaultSearcher(t, rs, 3)
			kinds := make(map[int8]int)
			var dw []int32
			for i := 0; i < 80; i++ {
				var pos *engine.Position
				if i%2 == 0 || r.Kind == engine.ConnectX { // clustered games are m,n,k's
					pos = randomPosition(r, rng, rng.IntN(r.Cells()/2+1))
				} else {
					pos = clusteredPosition(r, rng, 1+rng.IntN(r.Cells()/3+1))
				}
				if pos == nil {
					continue
				}
				for _, a := range []engine.Color{engine.X, engine.O} {
					s.load(pos, a)
					s.resetTree()
					b := s.b
					dw = b.wins(s.def, dw[:0])
					if b.hasWin(s.att) || b.full[0] > 0 || b.full[1] > 0 || len(dw) > 1 {
						continue
					}
					for g := range b.cells {
						if !b.playable(g) || (len(dw) == 1 && int(dw[0]) != g) {
							continue
						}
						var got int
						if b.gravity {
							got = s.evalGainReadGravity(g)
						} else {
							got = s.evalGainRead(g)
						}
						want := s.evalGainPlayed(g)
						if (got < 0) != (want < 0) {
							t.Fatalf("%v attacker %v cell %d: read %d, played %d", pos, a, g, got, want)
						}
						if got < 0 {
							kinds[notThreat]++
							continue
						}
						tg, tw := s.threats[got], s.threats[want]
						cg := s.costs[tg.cost0 : tg.cost0+tg.costN]
						cw := s.costs[tw.cost0 : tw.cost0+tw.costN]
						if tg.gain != tw.gain || tg.kind != tw.kind || !slices.Equal(cg, cw) {
							t.Fatalf("%v attacker %v cell %d: read kind %d costs %v, played kind %d costs %v", pos, a, g, tg.kind, cg, tw.kind, cw)
						}
						kinds[tg.kind]++
					}
					sameBoard(t, b, pos)
				}
			}
			t.Logf("cells by kind (none, four, three, goal): %d %d %d %d", kinds[notThreat], kinds[threatFour], kinds[threatThree], kinds[threatGoal])
			// K = 2: every stone makes a double four (a goal); threes are
			// m,n,k's (K >= 4).
			three := r.K >= 4 && r.Kind != engine.ConnectX
			if kinds[threatGoal] == 0 || (r.K >= 3 && kinds[threatFour] == 0) || (three && kinds[threatThree] == 0) {
				t.Errorf("some kind of threat never came up: %v", kinds)
			}
		})
	}
}
