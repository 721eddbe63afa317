package dbsearch

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// clusteredPosition plays stones random moves, each within two cells of a
// stone already down (the shape of a real game), avoiding moves that end
// the game; nil if it could not.
func clusteredPosition(r engine.Rules, rng *rand.Rand, stones int) *engine.Position {
	pos := engine.NewPosition(r)
	pos.Play(engine.Move((r.Rows/2)*r.Cols + r.Cols/2))
	var cand []int
	for pos.Ply() < stones {
		cand = cand[:0]
		for c := 0; c < r.Cells(); c++ {
			if pos.At(c/r.Cols, c%r.Cols) == engine.Empty && testpos.Near(pos, c/r.Cols, c%r.Cols, 2) {
				cand = append(cand, c)
			}
		}
		rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
		played := false
		for _, c := range cand {
			pos.Play(engine.Move(c))
			if pos.Result() == engine.Open {
				played = true
				break
			}
			pos.Undo()
		}
		if !played {
			return nil
		}
	}
	return pos
}

// hasThree reports whether side s of bf has a move after which it has two
// winning cells (an open three or better).
func hasThree(bf *bruteForce, s int8) bool {
	for c := range bf.cells {
		if !bf.legal(c) {
			continue
		}
		bf.cells[c] = s
		n := len(bf.winning(s))
		bf.cells[c] = -1
		if n >= 2 {
			return true
		}
	}
	return false
}

// quietGames returns n clustered 15x15x5 positions of 20 to 40 stones
// where neither side has a four or a three: no threat on the board, the
// DB-search has to build one.
func quietGames(tb testing.TB, n int) []*engine.Position {
	noThree := func(bf *bruteForce) bool { return !hasThree(bf, 0) && !hasThree(bf, 1) }
	return clusteredGames(tb, n, 11, noThree)
}

// middleGames returns n clustered 15x15x5 positions of 20 to 40 stones
// where neither side has a four.
func middleGames(tb testing.TB, n int) []*engine.Position {
	return clusteredGames(tb, n, 7, nil)
}

// clusteredGames returns n clustered 15x15x5 positions of 20 to 40 stones
// from the generator seeded with seed, where neither side has a winning
// cell (no four on the board) and keep, if not nil, accepts the board.
func clusteredGames(tb testing.TB, n int, seed uint64, keep func(*bruteForce) bool) []*engine.Position {
	r := testpos.Rules(tb, "gomoku")
	rng := rand.New(rand.NewPCG(seed, 15))
	var out []*engine.Position
	for len(out) < n {
		p := clusteredPosition(r, rng, 20+rng.IntN(21))
		if p == nil {
			continue
		}
		bf := newBruteForce(p, engine.X, 0)
		if len(bf.winning(0)) > 0 || len(bf.winning(1)) > 0 || (keep != nil && !keep(bf)) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkSearchGomoku: Search calls on 15x15x5 middle-game positions
// (20 to 40 stones of clustered random play), both sides as attacker in
// turn, default Options: "any" has no four on the board, "quiet" not even a
// three. Figures: go test -run XXX -bench SearchGomoku -benchmem -count 5
// ./bots/pndb/dbsearch/
func BenchmarkSearchGomoku(b *testing.B) {
	b.Run("any", func(b *testing.B) { benchSearch(b, middleGames(b, 16)) })
	b.Run("quiet", func(b *testing.B) { benchSearch(b, quietGames(b, 16)) })
}

// BenchmarkSearchConnectX: Search calls on small Connect-X boards (the PN
// prover's leaves there): 32 random positions of 6 to 15 plies, both sides
// as attacker in turn. go test -run XXX -bench SearchConnectX -benchmem
// -count 5 ./bots/pndb/dbsearch/
func BenchmarkSearchConnectX(b *testing.B) {
	for _, rs := range []string{"connectx:4x6x4", "connectx:5x6x4"} {
		b.Run(rs, func(b *testing.B) {
			r := testpos.Rules(b, rs)
			rng := rand.New(rand.NewPCG(13, uint64(r.Cells())))
			var positions []*engine.Position
			for len(positions) < 32 {
				if p := randomPosition(r, rng, 6+rng.IntN(10)); p != nil {
					positions = append(positions, p)
				}
			}
			benchSearch(b, positions)
		})
	}
}

func benchSearch(b *testing.B, positions []*engine.Position) {
	s, err := New(positions[0].Rules(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i < 2*len(positions); i++ { // warm up the buffers
		if _, err := s.Search(ctx, positions[i/2], engine.Color(i&1)); err != nil {
			b.Fatal(err)
		}
	}
	st0 := s.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	wins := 0
	for i := 0; i < b.N; i++ {
		j := i % (2 * len(positions))
		res, err := s.Search(ctx, positions[j/2], engine.Color(j&1))
		if err != nil {
			b.Fatal(err)
		}
		if res.Win {
			wins++
		}
	}
	b.StopTimer()
	st := s.Stats()
	b.ReportMetric(float64(st.Nodes-st0.Nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(wins)/float64(b.N), "wins/op")
}
