package pns

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// imageOf returns the position of p's moves mapped through transform t of y,
// played in the same order on an empty board.
func imageOf(t testing.TB, y *symmetry, p *engine.Position, tr int) *engine.Position {
	t.Helper()
	q := engine.NewPosition(p.Rules())
	for _, m := range p.Moves(nil) {
		if err := q.Apply(engine.Move(y.moves[tr*y.nmove+int(m)])); err != nil {
			t.Fatalf("transform %d of %s: %v", tr, p.Rules().FormatMoveList(p.Moves(nil)), err)
		}
	}
	return q
}

// TestSymmetryKeys: every transform is a distinct symmetry of the board
// (same result, same threats), the images of a position share its canonical
// key, the incremental hashes match a fresh computation, the identity hash
// is the engine's, and a move stored in the canonical frame decodes to
// equivalent moves (children of the same key) in every orientation.
func TestSymmetryKeys(t *testing.T) {
	for _, tc := range []struct {
		rules string
		n     int
	}{
		{"mnk:4x4x3", 8},
		{"mnk:6x5x4", 4},
		{"mnk:19x19x5", 8},
		{"connectx:6x7x4", 2},
		{"connectx:4x4x4", 2},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			r, err := engine.ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			y := newSymmetry(r, true)
			if y.n != tc.n {
				t.Fatalf("%d transforms, want %d", y.n, tc.n)
			}
			es := r.Symmetries()
			seen := map[string]bool{}
			for tr := 0; tr < y.n; tr++ {
				var img []rune // the cell map, to check the maps are distinct
				for c := 0; c < y.ncell; c++ {
					img = append(img, rune(es.Cell(tr, c)+1))
					if es.Cell(int(y.inv[tr]), es.Cell(tr, c)) != c {
						t.Fatalf("inverse of %d wrong", tr)
					}
				}
				if seen[string(img)] {
					t.Fatalf("transform %d repeats another", tr)
				}
				seen[string(img)] = true
			}
			rng := rand.New(rand.NewPCG(7, uint64(tc.n)))
			for it := 0; it < 60; it++ {
				p, _ := testpos.Random(r, rng, rng.IntN(min(r.Cells(), 30)))
				// Incremental hashes along the moves equal a fresh set.
				inc := newSymmetry(r, true)
				q := engine.NewPosition(r)
				for _, m := range p.Moves(nil) {
					inc.toggle(q.Cell(m), q.ToMove())
					q.Play(m)
				}
				y.set(p)
				if inc.h != y.h || y.h[0] != p.Hash() {
					t.Fatalf("%s: incremental hashes %x, fresh %x, engine %x", r.FormatMoveList(p.Moves(nil)), inc.h, y.h, p.Hash())
				}
				key := y.key()
				legal := p.LegalMoves(nil)
				for tr := 0; tr < y.n; tr++ {
					q := imageOf(t, &y, p, tr)
					qy := newSymmetry(r, true)
					qy.set(q)
					if qy.key() != key {
						t.Fatalf("%s: transform %d has another key", r.FormatMoveList(p.Moves(nil)), tr)
					}
					for _, m := range legal {
						// The winning cells map onto each other.
						img := engine.Move(y.moves[tr*y.nmove+int(m)])
						for _, c := range []engine.Color{engine.X, engine.O} {
							if p.WinsAt(p.Cell(m), c) != q.WinsAt(q.Cell(img), c) {
								t.Fatalf("%s: transform %d: %s wins differently", r.FormatMoveList(p.Moves(nil)), tr, r.FormatMove(m))
							}
						}
						v := y.enc(m)
						if y.dec(v) != m {
							t.Fatalf("dec(enc(%d)) = %d", m, y.dec(v))
						}
						qm := qy.dec(v)
						if !q.Legal(qm) || qy.child(q.Cell(qm), q.ToMove()) != y.child(p.Cell(m), p.ToMove()) {
							t.Fatalf("%s: transform %d: canonical move %d decodes to %d, not an image of %d", r.FormatMoveList(p.Moves(nil)), tr, v, qm, m)
						}
					}
				}
			}
		})
	}
}

// TestSymmetricPositionsShareNode: once a position is decided, each of its
// images is decided by the same node (no expansion), with the same
// outcome; without symmetry the images need their own search.
func TestSymmetricPositionsShareNode(t *testing.T) {
	for _, tc := range []struct{ rules, moves string }{
		{"mnk:4x4x3", "a1"},
		{"mnk:4x4x4", "a1 b2 c1"},
		{"mnk:3x4x4", "a1"},
		{"connectx:4x5x4", "1 2"},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			p := testpos.Of(t, tc.rules, tc.moves)
			y := newSymmetry(p.Rules(), true)
			for _, sym := range []bool{true, false} {
				s, err := New(p.Rules(), Options{MemMiB: 16, NoSymmetry: !sym})
				if err != nil {
					t.Fatal(err)
				}
				want, err := s.Prove(context.Background(), p, NotLose)
				if err != nil || want == Unknown {
					t.Fatalf("prove: %v %v", want, err)
				}
				seen := map[uint64]bool{p.Hash(): true}
				for tr := 1; tr < y.n; tr++ {
					q := imageOf(t, &y, p, tr)
					if seen[q.Hash()] {
						continue // an image searched already
					}
					seen[q.Hash()] = true
					got, err := s.Prove(context.Background(), q, NotLose)
					if err != nil || got != want {
						t.Fatalf("transform %d: %v %v, want %v", tr, got, err, want)
					}
					if n := s.Stats().Expanded; sym && n != 0 {
						t.Errorf("transform %d: %d expansions, want 0 (one shared node)", tr, n)
					} else if !sym && n == 0 {
						t.Errorf("transform %d: no expansion without symmetry", tr)
					}
					if s.Stats().Stopped != nil {
						t.Fatalf("stopped: %v", s.Stats().Stopped)
					}
				}
			}
		})
	}
}

// TestBestOnMirroredPositions: on random decided positions and their images
// under every symmetry, searched by one searcher (so the images use the
// nodes of the first orientation), Best is a legal move of the image, of
// the exact value of a plain negamax, and the PV is legal. On mnk:4x4x3
// the distance is exact too (fastest win, slowest loss, as in
// TestDepthAgainstExact); on Connect-X the depth is that of the best leaf
// found, not always the exact one, with or without symmetry.
func TestBestOnMirroredPositions(t *testing.T) {
	for _, tc := range []struct {
		rules      string
		exactDepth bool
	}{
		{"mnk:4x4x3", true},
		{"connectx:4x4x4", false},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			r, _ := engine.ParseRules(tc.rules)
			rng := rand.New(rand.NewPCG(5, 6))
			memo := map[uint64]exact{}
			y := newSymmetry(r, true)
			s, err := New(r, Options{MemMiB: 16})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for it := 0; it < 200 && checked < 60; it++ {
				p, _ := testpos.Random(r, rng, 4+rng.IntN(r.Cells()/2-3))
				want := solveExact(p, memo)
				if want.v == 0 {
					continue
				}
				goal, wantO := Win, Proved
				if want.v < 0 {
					goal, wantO = NotLose, Disproved
				}
				s.Reset()
				for tr := 0; tr < y.n; tr++ {
					q := imageOf(t, &y, p, tr)
					o, err := s.Prove(context.Background(), q, goal)
					if err != nil || o != wantO {
						t.Fatalf("%s: %v %v, want %v", r.FormatMoveList(q.Moves(nil)), o, err, wantO)
					}
					m, _ := s.Best()
					if !q.Legal(m) {
						t.Fatalf("%s (transform %d): best %d illegal", r.FormatMoveList(q.Moves(nil)), tr, m)
					}
					if got := moveExact(q, m, memo); got.v != want.v || tc.exactDepth && got != want {
						t.Errorf("%s (transform %d): best %s is %+v, want %+v", r.FormatMoveList(q.Moves(nil)), tr, r.FormatMove(m), got, want)
					}
					pv := s.PV(nil, 20)
					c := q.Clone()
					for _, m := range pv {
						if err := c.Apply(m); err != nil {
							t.Fatalf("%s (transform %d): pv %s: %v", r.FormatMoveList(q.Moves(nil)), tr, r.FormatMoveList(pv), err)
						}
					}
					checked++
				}
			}
			if checked < 20 {
				t.Errorf("only %d positions checked", checked)
			}
		})
	}
}

// BenchmarkExpandSymmetry measures PN iterations on a 10x10x5 board (a few
// stones, goal Win) with the symmetric keys and without: their cost.
func BenchmarkExpandSymmetry(b *testing.B) {
	for _, sym := range []bool{true, false} {
		b.Run(map[bool]string{true: "sym", false: "plain"}[sym], func(b *testing.B) {
			benchProve(b, testpos.Of(b, "mnk:10x10x5", "e5 e6 f6 d4"), Options{NoSymmetry: !sym})
		})
	}
}
