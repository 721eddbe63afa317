package dbsearch

import (
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// TestMoveTo: after DB trees are grown on random positions (dependency and
// combination nodes), moving the board to their nodes in random order
// gives the board of pos with each node's threats played from scratch in
// list order (a cell played once), and unwind gives pos back.
func TestMoveTo(t *testing.T) {
	for _, rs := range []string{"mnk:9x9x5", "gomoku", "connect4", "mnk:6x6x4"} {
		t.Run(rs, func(t *testing.T) {
			r, s, rng := defaultSearcher(t, rs, 9)
			want := newBoard(r)
			moved, combos := 0, 0
			for i := 0; i < 30; i++ {
				var pos *engine.Position
				if r.Kind == engine.ConnectX {
					pos = randomPosition(r, rng, rng.IntN(r.Cells()/2))
				} else {
					pos = clusteredPosition(r, rng, 8+rng.IntN(20))
				}
				if pos == nil {
					continue
				}
				for _, a := range []engine.Color{engine.X, engine.O} {
					// Grow a tree by hand, as Search's first stages do.
					s.load(pos, a)
					if s.b.hasWin(s.att) {
						continue
					}
					s.resetTree()
					for n := 0; n < len(s.tree) && n < 40; n++ {
						s.expand(n)
					}
					hi := len(s.tree)
					for b := 2; b < hi; b++ {
						for a := 1; a < b; a++ {
							s.combine(a, b)
						}
					}
					combos += len(s.tree) - hi
					for j := 0; j < 30 && len(s.tree) > 1; j++ {
						n := &s.tree[rng.IntN(len(s.tree))]
						s.moveTo(n)
						want.load(pos)
						for _, ti := range s.lists[n.list0 : n.list0+n.listN] {
							th := &s.threats[ti]
							if want.cells[th.gain] == empty {
								want.put(int(th.gain), s.att)
							}
							for _, c := range s.costs[th.cost0 : th.cost0+th.costN] {
								if want.cells[c] == empty {
									want.put(int(c), s.def)
								}
							}
						}
						equalBoards(t, s.b, want)
						moved++
					}
					s.unwind()
					sameBoard(t, s.b, pos)
				}
			}
			if moved == 0 || combos == 0 {
				t.Fatalf("%d moves, %d combination nodes: the test saw nothing", moved, combos)
			}
			t.Logf("%d moves checked, %d combination nodes", moved, combos)
		})
	}
}
