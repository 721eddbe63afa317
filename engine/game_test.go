package engine

import (
	"strings"
	"testing"
)

func TestGameDescriptors(t *testing.T) {
	tests := []struct {
		rules     string
		gravity   bool
		moves     int
		syms      int
		psq, sgf  bool
		digits    bool
		firstMove string
	}{
		{"connect4", true, 7, 2, false, false, true, "1"},
		{"connectx:8x10x5", true, 10, 2, false, false, false, "1"},
		{"gomoku", false, 225, 8, true, true, false, "a1"},
		{"mnk:5x7x4", false, 35, 4, true, true, false, "a1"},
		{"renju", false, 225, 8, true, true, false, "a1"},
	}
	for _, tc := range tests {
		r, err := ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		g := r.Game()
		if g.Kind() != r.Kind || g.String() != r.Kind.String() {
			t.Errorf("%s: Game() is %s (kind %d), want the descriptor of %s", tc.rules, g, g.Kind(), r.Kind)
		}
		if g.Gravity() != tc.gravity || r.Gravity() != tc.gravity {
			t.Errorf("%s: gravity %v, want %v", tc.rules, g.Gravity(), tc.gravity)
		}
		if r.MoveRange() != tc.moves {
			t.Errorf("%s: MoveRange %d, want %d", tc.rules, r.MoveRange(), tc.moves)
		}
		if n := g.SymmetryCount(r.Rows, r.Cols); n != tc.syms || r.Symmetries().Len() != n {
			t.Errorf("%s: %d symmetries (Symmetries().Len() %d), want %d", tc.rules, n, r.Symmetries().Len(), tc.syms)
		}
		if g.Holds(FormatPSQ) != tc.psq || g.Holds(FormatSGF) != tc.sgf || g.Holds(FormatGomocup) != tc.psq {
			t.Errorf("%s: holds psq %v sgf %v gomocup %v, want %v %v %v", tc.rules,
				g.Holds(FormatPSQ), g.Holds(FormatSGF), g.Holds(FormatGomocup), tc.psq, tc.sgf, tc.psq)
		}
		if r.DigitMoveList() != tc.digits {
			t.Errorf("%s: DigitMoveList %v, want %v", tc.rules, r.DigitMoveList(), tc.digits)
		}
		if got := r.FormatMove(0); got != tc.firstMove {
			t.Errorf("%s: FormatMove(0) = %q, want %q", tc.rules, got, tc.firstMove)
		}
		if def := g.Default(); def.Kind != r.Kind || def.Validate() != nil {
			t.Errorf("%s: Default() = %v (%v), want valid rules of its kind", tc.rules, def, def.Validate())
		}
	}
}

func TestKindsRoundTrip(t *testing.T) {
	for _, k := range Kinds() {
		got, err := ParseKind(strings.ToUpper(k.String()))
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", k, got, err, k)
		}
	}
	if _, err := ParseKind("hex"); err == nil || !strings.Contains(err.Error(), "connectx and mnk") {
		t.Errorf("ParseKind(hex) error = %v; want the accepted names", err)
	}
	var none *Game
	if Kind(0).Game() != nil || none.Gravity() || none.Holds(FormatPSQ) || none.String() != "none" {
		t.Error("the nil Game must answer no gravity, no formats, \"none\"")
	}
}

func TestLineBehaviour(t *testing.T) {
	tests := []struct {
		line             Line
		exactX, exactO   bool
		forbidX, forbidO bool
	}{
		{Freestyle, false, false, false, false},
		{Exact, true, true, false, false},
		{Renju, true, false, true, false},
	}
	for _, tc := range tests {
		l := tc.line
		if l.ExactFor(X) != tc.exactX || l.ExactFor(O) != tc.exactO {
			t.Errorf("%s: ExactFor X %v O %v, want %v %v", l, l.ExactFor(X), l.ExactFor(O), tc.exactX, tc.exactO)
		}
		if l.Forbids(X) != tc.forbidX || l.Forbids(O) != tc.forbidO {
			t.Errorf("%s: Forbids X %v O %v, want %v %v", l, l.Forbids(X), l.Forbids(O), tc.forbidX, tc.forbidO)
		}
		for _, c := range []Color{X, O} {
			if !l.Wins(c, 5, 5) || l.Wins(c, 4, 5) || l.Wins(c, 6, 5) != !l.ExactFor(c) {
				t.Errorf("%s: Wins for %s disagrees with ExactFor", l, c)
			}
		}
	}
}
