package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRulesVariants(t *testing.T) {
	tests := []struct {
		in, canon, variant string
		err                string
	}{
		{"gomoku", "mnk:15x15x5", "mnk", ""},
		{"gomoku-standard", "mnk:15x15x5:exact", "mnk:exact", ""},
		{"renju", "mnk:15x15x5:renju", "mnk:renju", ""},
		{"mnk:19x19x5:renju", "mnk:19x19x5:renju", "mnk:renju", ""},
		{"MNK:20x20x6:Exact", "mnk:20x20x6:exact", "mnk:exact", ""},
		{"connectx:6x7x4:exact", "connectx:6x7x4:exact", "connectx:exact", ""},
		{"mnk:15x15x5:freestyle", "mnk:15x15x5", "mnk", ""},
		{"connectx:6x7x4:renju", "", "", "for mnk only"},
		{"mnk:15x15x6:renju", "", "", "needs k = 5"},
		{"mnk:15x15x5:caro", "", "", "unknown line rule"},
		{"mnk:15x15x5:", "", "", "unknown line rule"},
	}
	for _, tc := range tests {
		r, err := ParseRules(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseRules(%q) error = %v; want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || r.String() != tc.canon || r.Variant() != tc.variant {
			t.Errorf("ParseRules(%q) = %v (%s), %v; want %s (%s)", tc.in, r, r.Variant(), err, tc.canon, tc.variant)
		}
	}
	if got := strings.Join(Variants(), " "); got != "connectx mnk connectx:exact mnk:exact mnk:renju" {
		t.Errorf("Variants() = %s", got)
	}
}

// playCells plays the moves (cells of a 15x15 board) alternately, x first, with
// the given rules, and returns the result after the last one.
func playCells(t *testing.T, rules string, moves ...string) *Position {
	t.Helper()
	r, err := ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPosition(r)
	for _, s := range moves {
		m, err := r.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	return p
}

func TestVariantWins(t *testing.T) {
	// x builds a8..e8 then g8, o answers far away; the last x move, f8, makes six.
	five := []string{"a8", "a1", "b8", "c1", "c8", "e1", "d8", "g1", "e8"}
	// x on a8..d8 and f8, then e8 makes six (a8-f8).
	sixByJoin := []string{"a8", "a1", "b8", "c1", "c8", "e1", "d8", "g1", "f8", "j1", "e8"}
	// o makes six the same way: o on a8..d8, f8, then e8.
	oSix := []string{"a3", "a8", "c3", "b8", "e3", "c8", "g3", "d8", "a5", "f8", "k5", "e8"}
	tests := []struct {
		rules string
		moves []string
		want  Result
	}{
		{"gomoku", five, XWins},
		{"gomoku", sixByJoin, XWins},
		{"gomoku-standard", five, XWins},
		{"gomoku-standard", sixByJoin, Open},
		{"gomoku-standard", oSix, Open},
		{"renju", five, XWins},
		{"renju", sixByJoin, Open},
		{"renju", oSix, OWins},
		{"gomoku", oSix, OWins},
		{"connectx:6x7x4:exact", []string{"1", "1", "2", "2", "4", "4", "5", "5", "3"}, Open},
		{"connectx:6x7x4", []string{"1", "1", "2", "2", "4", "4", "5", "5", "3"}, XWins},
	}
	for _, tc := range tests {
		p := playCells(t, tc.rules, tc.moves...)
		if p.Result() != tc.want {
			t.Errorf("%s %v: result %v, want %v\n%s", tc.rules, tc.moves, p.Result().Describe(), tc.want.Describe(), p.Diagram())
		}
	}
}

func TestCheckForbidden(t *testing.T) {
	// x: f8 g8 h9 h10; o far away; x to move: h8 is a double three.
	p := playCells(t, "renju", "f8", "a1", "g8", "c1", "h9", "e1", "h10", "a15")
	m, _ := p.Rules().ParseMove("h8")
	err := p.Check(m)
	var fe *ForbiddenError
	if !errors.Is(err, ErrForbidden) || !errors.As(err, &fe) || fe.Foul != DoubleThree || fe.Move != "h8" {
		t.Fatalf("Check(h8) = %v; want a double three at h8", err)
	}
	if p.Foul(m) != DoubleThree {
		t.Errorf("Foul(h8) = %v", p.Foul(m))
	}
	for _, l := range p.LegalMoves(nil) {
		if l == m {
			t.Errorf("LegalMoves lists the forbidden h8")
		}
	}
	// The same shape is legal for white, and under the other line rules.
	for _, rules := range []string{"gomoku", "gomoku-standard"} {
		q := playCells(t, rules, "f8", "a1", "g8", "c1", "h9", "e1", "h10", "a15")
		if err := q.Check(m); err != nil {
			t.Errorf("%s: Check(h8) = %v", rules, err)
		}
	}
	w := playCells(t, "renju", "a2", "f8", "a4", "g8", "a6", "h9", "a9", "h10", "a13")
	if err := w.Check(m); err != nil || w.Foul(m) != NoFoul {
		t.Errorf("white: Check(h8) = %v", err)
	}
}

func TestSymmetries(t *testing.T) {
	for _, rs := range []string{"connect4", "gomoku", "renju", "mnk:5x9x4", "mnk:1x7x3"} {
		r, _ := ParseRules(rs)
		s := r.Symmetries()
		want := map[string]int{"connect4": 2, "gomoku": 8, "renju": 8, "mnk:5x9x4": 4, "mnk:1x7x3": 4}[rs]
		if s.Len() != want {
			t.Errorf("%s: %d symmetries, want %d", rs, s.Len(), want)
		}
		p := NewPosition(r)
		seed := uint64(3)
		for p.Ply() < min(r.Cells()/2, 12) && p.Result() == Open {
			legal := p.LegalMoves(nil)
			seed = seed*6364136223846793005 + 1442695040888963407
			p.Play(legal[(seed>>33)%uint64(len(legal))])
		}
		h := s.Hashes(p)
		if h.Hash(0) != p.Hash() {
			t.Errorf("%s: identity hash %x, position hash %x", rs, h.Hash(0), p.Hash())
		}
		for tr := 0; tr < s.Len(); tr++ {
			if s.Inverse(tr) < 0 || s.Cell(s.Inverse(tr), s.Cell(tr, 5%r.Cells())) != 5%r.Cells() {
				t.Errorf("%s: inverse of %d does not undo it", rs, tr)
			}
			// The image position, played move by move, hashes as h.Hash(tr).
			q := NewPosition(r)
			for _, m := range p.Moves(nil) {
				q.Play(s.Move(tr, m))
			}
			if q.Hash() != h.Hash(tr) {
				t.Errorf("%s: image %d hashes %x, SymHash says %x", rs, tr, q.Hash(), h.Hash(tr))
			}
			qh := s.Hashes(q)
			if a, _ := qh.Least(); a != func() uint64 { k, _ := h.Least(); return k }() {
				t.Errorf("%s: image %d has another least key", rs, tr)
			}
		}
		// Toggle follows play and undo.
		m := p.LegalMoves(nil)
		if len(m) > 0 {
			cell := p.Cell(m[0])
			c := p.ToMove()
			h.Toggle(cell, c)
			p.Play(m[0])
			if h.Hash(0) != p.Hash() {
				t.Errorf("%s: toggled hash differs from the played one", rs)
			}
		}
	}
}

// FuzzRenjuFoul fills a 15x15 board from the fuzzer's bytes (byte i is
// cell i: black when it is 0 or 1 modulo 5, white when 2, empty otherwise;
// cells past the data stay empty) and checks that the
// judgement of every empty cell never panics, leaves the board as it was,
// and is the same at the cell's image under each of the board's symmetries.
func FuzzRenjuFoul(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte(strings.Repeat("\x00\x03\x01\x03\x02\x03", 40)))
	f.Add([]byte(strings.Repeat("\x00\x00\x03\x00\x03\x03\x02", 40)))
	r, _ := ParseRules("renju")
	syms := r.Symmetries()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := NewPosition(r)
		for i, b := range data {
			if i >= r.Cells() {
				break
			}
			switch b % 5 {
			case 0, 1:
				p.cells[i] = X
			case 2:
				p.cells[i] = O
			}
		}
		images := make([]*Position, syms.Len())
		for tr := range images {
			q := NewPosition(r)
			for c, v := range p.cells {
				q.cells[syms.Cell(tr, c)] = v
			}
			images[tr] = q
		}
		before := append([]Color(nil), p.cells...)
		for c, v := range p.cells {
			if v != Empty {
				continue
			}
			want := p.foul(c)
			for tr, q := range images {
				if got := q.foul(syms.Cell(tr, c)); got != want {
					t.Fatalf("cell %s: %q, its image under symmetry %d: %q\n%s", r.FormatMove(Move(c)), want, tr, got, p.Diagram())
				}
			}
		}
		for i := range before {
			if p.cells[i] != before[i] {
				t.Fatal("the judgement changed the board")
			}
		}
	})
}

// stuckGame fills the 15x15 board but h8, where black (to move after the
// last, white, move) would make f8-m8, an overline: every black move on the
// way was legal (built by a search that checked each with Check), no one
// has five.
const stuckGame = "p5 f14 o4 g7 c1 l7 a6 p7 g9 j12 c10 g3 n10 n15 d7 d6 o7 a11 l5 h4 n1 j3 j13 m13 o3 k10 c6 c7 p9 f10 k3 n11 " +
	"e14 j15 g2 m5 d3 g15 b4 a3 e9 d10 n2 h14 l13 c12 k7 b13 n6 a12 c14 b14 k4 h6 b12 o2 p10 k2 a1 g4 a14 n3 n14 e11 b8 " +
	"e4 j8 b2 l10 c8 j9 f5 b15 p11 n5 j4 h7 d2 j2 l11 e6 a4 g13 k9 f7 k13 e5 d5 e13 l15 d11 m6 d15 a7 o8 n7 g10 p15 j5 " +
	"l3 h3 k5 j14 o1 l1 j11 c13 m7 m15 c3 k15 m12 a13 m1 o15 b1 d12 e8 j6 o6 a2 c11 c9 n12 e2 n8 f11 p8 l14 f6 a5 f2 n9 " +
	"k6 m3 e3 g1 f9 l2 h9 m8 b9 h12 m9 l9 o9 j10 f13 o12 m14 d4 k1 m11 m10 g8 e15 j1 c15 p6 l12 p2 g11 p14 o13 b11 o10 " +
	"h11 f1 a10 a15 k11 h5 a9 o14 f15 h1 p1 p4 b7 p3 k12 c4 d8 d9 h15 l4 o11 j7 e10 a8 f8 g12 e1 m2 p13 e7 g5 k14 f3 " +
	"d14 c5 b10 g14 h2 b3 e12 f4 h10 g6 b5 f12 p12 k8 n4 n13 d13 l6 d1 c2 o5 l8 h13 m4 b6"

// TestRenjuBlackWithNoLegalMoveDraws: when white's move leaves black to
// move with every empty cell forbidden, the game is over, drawn (kinrow has
// no pass), so that the referee, the front ends and the bots all see it;
// under freestyle the same cell is a legal (and winning) move.
func TestRenjuBlackWithNoLegalMoveDraws(t *testing.T) {
	for _, tc := range []struct {
		rules string
		want  Result
		stuck bool
	}{{"renju", Draw, true}, {"gomoku", Open, false}, {"gomoku-standard", Open, false}} {
		r, _ := ParseRules(tc.rules)
		moves, err := r.ParseMoveList(stuckGame)
		if err != nil {
			t.Fatal(err)
		}
		p := NewPosition(r)
		for i, m := range moves {
			if err := p.Apply(m); err != nil {
				t.Fatalf("%s: move %d %s: %v", tc.rules, i+1, r.FormatMove(m), err)
			}
			if i < len(moves)-1 && p.Result() != Open {
				t.Fatalf("%s: over after move %d: %s", tc.rules, i+1, p.Result().Describe())
			}
		}
		h8, _ := r.ParseMove("h8")
		if p.Result() != tc.want || p.Stuck() != tc.stuck {
			t.Errorf("%s: result %s, stuck %v; want %s, %v\n%s", tc.rules, p.Result().Describe(), p.Stuck(), tc.want.Describe(), tc.stuck, p.Diagram())
		}
		if got := p.LegalMoves(nil); (len(got) == 0) != tc.stuck {
			t.Errorf("%s: legal moves %v", tc.rules, r.FormatMoveList(got))
		}
		if tc.stuck {
			if err := p.Check(h8); !errors.Is(err, ErrGameOver) {
				t.Errorf("%s: Check(h8) = %v, want game over", tc.rules, err)
			}
			if f := p.Foul(h8); f != Overline {
				t.Errorf("%s: h8's foul %q, want overline", tc.rules, f)
			}
			// Taking white's move back reopens the game.
			p.Undo()
			if p.Result() != Open || p.Stuck() {
				t.Errorf("%s: after undo: %s", tc.rules, p.Result().Describe())
			}
			continue
		}
		if err := p.Apply(h8); err != nil {
			t.Errorf("%s: h8: %v", tc.rules, err)
		}
	}
}
