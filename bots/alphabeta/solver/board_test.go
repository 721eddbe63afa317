package solver

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// naiveWinCells is the reference for winCells: every empty cell of the
// board where a stone of pos would make k in a row, found cell by cell on
// (column, row) coordinates.
func naiveWinCells(g *geom, pos, mask uint64) uint64 {
	has := func(c, r int) bool {
		return c >= 0 && c < g.cols && r >= 0 && r < g.rows && pos&(1<<uint(c*g.h+r)) != 0
	}
	var w uint64
	for c := 0; c < g.cols; c++ {
		for r := 0; r < g.rows; r++ {
			bit := uint64(1) << uint(c*g.h+r)
			if mask&bit != 0 {
				continue
			}
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				run := 1
				for i := 1; has(c+i*d[0], r+i*d[1]); i++ {
					run++
				}
				for i := 1; has(c-i*d[0], r-i*d[1]); i++ {
					run++
				}
				if run >= g.k {
					w |= bit
				}
			}
		}
	}
	return w
}

// TestWinCells compares winCells (the constant-shift 6-row path, the
// fast4 path and the general one) with the naive reference on random
// stone sets, legal or not.
func TestWinCells(t *testing.T) {
	for _, b := range [][3]int{{6, 7, 4}, {6, 4, 4}, {6, 8, 4}, {6, 9, 4}, {5, 6, 4}, {7, 7, 4}, {6, 7, 3}, {6, 7, 5}, {4, 12, 4}, {3, 16, 3}, {1, 32, 5}} {
		t.Run(fmt.Sprintf("%dx%dx%d", b[0], b[1], b[2]), func(t *testing.T) {
			g, err := newGeom(b[0], b[1], b[2])
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(b[0]), uint64(b[1]*64+b[2])))
			for range 3000 {
				var pos, mask uint64
				for c := 0; c < g.cols; c++ {
					height := rng.IntN(g.rows + 1)
					mask |= (uint64(1)<<uint(height) - 1) << uint(c*g.h)
				}
				pos = mask & rng.Uint64() & rng.Uint64() // sparse, like one side's stones
				if rng.IntN(2) == 0 {
					pos = mask & rng.Uint64()
				}
				want := naiveWinCells(g, pos, mask)
				if got := g.winCells(pos, mask); got != want {
					t.Fatalf("pos %#x mask %#x: winCells %#x, want %#x", pos, mask, got, want)
				}
				if got := g.winCellsAny(pos, mask); got != want {
					t.Fatalf("pos %#x mask %#x: winCellsAny %#x, want %#x", pos, mask, got, want)
				}
				if got := g.winCellsK(pos) & (g.board ^ mask); got != want {
					t.Fatalf("pos %#x mask %#x: winCellsK %#x, want %#x", pos, mask, got, want)
				}
			}
		})
	}
}

// TestMirrorKey checks mirrorKey (the constant-shift 6x7 path and the
// general one) against the key of the position reached by the mirrored
// moves, on random games.
func TestMirrorKey(t *testing.T) {
	for _, b := range [][3]int{{6, 7, 4}, {6, 6, 4}, {5, 8, 4}, {4, 5, 3}, {3, 16, 3}, {1, 32, 5}} {
		t.Run(fmt.Sprintf("%dx%dx%d", b[0], b[1], b[2]), func(t *testing.T) {
			s, err := New(b[0], b[1], b[2], 1)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(b[0]), uint64(b[1])))
			for range 200 {
				p, q := s.NewPosition(), s.NewPosition()
				for !p.GameOver() {
					c := rng.IntN(b[1])
					if !p.CanPlay(c) {
						continue
					}
					p.Play(c)
					q.Play(b[1] - 1 - c)
					if got, want := s.g.mirrorKey(p.cur+p.mask), q.cur+q.mask; got != want {
						t.Fatalf("mirrorKey(%#x) = %#x; the mirrored position's key is %#x", p.cur+p.mask, got, want)
					}
					if got := s.g.mirrorKey(q.cur + q.mask); got != p.cur+p.mask {
						t.Fatalf("mirrorKey is not its own inverse: %#x", got)
					}
				}
			}
		})
	}
}

// TestParityBounds checks the parity strategies (parity.go) against
// scores found without them: on every position of random games on small
// boards (the brute force, rows even and odd) and on every position of the
// shared Connect-4 sets and their children (the files' exact scores), the
// bounds parityBounds gives hold the score. It counts each bound where it
// applied (score <= 0, <= -1, >= 0, >= 1, and below -1, the first
// player's odd threat with its latest move), so that each is seen tested.
func TestParityBounds(t *testing.T) {
	var applied [5]int // hi 0, hi -1, lo 0, lo 1, hi below -1 (a loss by a time)
	check := func(s *Solver, q Position, score int, what string) {
		t.Helper()
		g := &s.g
		opp := q.cur ^ q.mask
		lo, hi := g.parityBounds(q.cur, opp, q.mask, (q.mask+g.bottom)&g.board, g.winCells(opp, q.mask), 0, 0)
		if score < lo || score > hi {
			t.Fatalf("%s: parityBounds [%d, %d] but the score is %d", what, lo, hi, score)
		}
		switch {
		case hi == 0:
			applied[0]++
		case hi == -1:
			applied[1]++
		case hi < -1:
			applied[4]++
		}
		switch lo {
		case 0:
			applied[2]++
		case 1:
			applied[3]++
		}
	}
	for _, rs := range []string{"connectx:4x4x3", "connectx:4x5x4", "connectx:2x6x3", "connectx:5x4x3", "connectx:4x4x4", "connectx:3x5x3"} {
		r, bf, s := smallBoard(t, rs)
		rng := rand.New(rand.NewPCG(7, uint64(len(rs))))
		for game := 0; game < 60; game++ {
			p := engine.NewPosition(r)
			for p.Result() == engine.Open {
				check(s, toSolver(t, s, p), bf.score(p), rs+" "+r.FormatMoveList(p.Moves(nil)))
				legal := p.LegalMoves(nil)
				p.Play(legal[rng.IntN(len(legal))])
			}
		}
	}
	small := applied
	s, err := New(6, 7, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"L3_R1", "L2_R1", "L1_R1"} {
		for _, f := range sharedSet(t, set, 1000) {
			p := s.NewPosition()
			for _, ch := range f[0] {
				p.Play(int(ch - '1'))
			}
			v, _ := strconv.Atoi(f[1])
			check(s, p, v, set+" "+f[0])
			for c := 0; c < 7 && len(f) >= 9; c++ {
				if f[2+c] == "-" || p.IsWinningMove(c) {
					continue
				}
				sc, _ := strconv.Atoi(f[2+c])
				q := p
				q.Play(c)
				check(s, q, -sc, fmt.Sprintf("%s %s+%d", set, f[0], c+1))
			}
		}
	}
	for i, name := range []string{"score <= 0", "score <= -1", "score >= 0", "score >= 1", "score < -1"} {
		if small[i] == 0 {
			t.Errorf("%s never applied on the small boards: not tested", name)
		}
		t.Logf("%s applied to %d positions of small boards and %d of the Connect-4 sets, always holding", name, small[i], applied[i]-small[i])
	}
}

// TestAligned4h7 checks the constant-shift four-in-a-row test of 6x7
// against the general one on random sets of cells.
func TestAligned4h7(t *testing.T) {
	g, err := newGeom(6, 7, 4)
	if err != nil {
		t.Fatal(err)
	}
	general := *g
	general.h7 = false
	rng := rand.New(rand.NewPCG(3, 4))
	found := 0
	for i := 0; i < 20000; i++ {
		pos := rng.Uint64() & rng.Uint64() & g.board
		if i%2 == 0 {
			pos &= rng.Uint64()
		}
		fast, want := g.aligned(pos), general.aligned(pos)
		if fast != want {
			t.Fatalf("aligned(%#x) = %v; the general test says %v", pos, fast, want)
		}
		if want {
			found++
		}
	}
	if found == 0 || found == 20000 {
		t.Fatalf("%d of 20000 random sets aligned: the test does not tell", found)
	}
}
