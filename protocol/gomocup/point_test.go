package gomocup

import (
	"errors"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		s    string
		want Point
		ok   bool
	}{{"0,0", Point{0, 0}, true}, {"10,11", Point{10, 11}, true}, {" 3 , 4 ", Point{3, 4}, true},
		{"3", Point{}, false}, {"3,", Point{}, false}, {",3", Point{}, false}, {"a,1", Point{}, false},
		{"-1,0", Point{}, false}, {"1,2,3", Point{}, false}, {"1048577,0", Point{}, false}, {"1 2", Point{}, false}}
	for _, tt := range tests {
		p, err := ParsePoint(tt.s)
		if (err == nil) != tt.ok || p != tt.want {
			t.Errorf("ParsePoint(%q) = %v, %v; want %v, ok %v", tt.s, p, err, tt.want, tt.ok)
		}
	}
}

// The mapping of the doc comment, on a board 6 wide and 5 high: Y 0 is
// kinrow's row 5 (a5 … f5), Y 4 its row 1 (a1 … f1).
func TestCoordinates(t *testing.T) {
	r, err := FreestyleRules(6, 5) // 6 columns, 5 rows
	if err != nil {
		t.Fatal(err)
	}
	if r.String() != "mnk:5x6x5" {
		t.Fatalf("FreestyleRules(6, 5) = %s; want mnk:5x6x5", r)
	}
	tests := []struct {
		p      Point
		vertex string
	}{{Point{0, 0}, "a5"}, {Point{0, 4}, "a1"}, {Point{5, 4}, "f1"}, {Point{5, 0}, "f5"}, {Point{2, 1}, "c4"}}
	for _, tt := range tests {
		m, err := ToMove(r, tt.p)
		if err != nil || r.FormatMove(m) != tt.vertex {
			t.Errorf("ToMove(%v) = %s, %v; want %s", tt.p, r.FormatMove(m), err, tt.vertex)
		}
		back, err := FromMove(r, m)
		if err != nil || back != tt.p {
			t.Errorf("FromMove(%s) = %v, %v; want %v", tt.vertex, back, err, tt.p)
		}
	}
	for m := engine.Move(0); int(m) < r.Cells(); m++ {
		p, err := FromMove(r, m)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := ToMove(r, p); err != nil || back != m {
			t.Fatalf("ToMove(FromMove(%d)) = %d, %v", m, back, err)
		}
	}
	for _, p := range []Point{{6, 0}, {0, 5}, {-1, 0}} {
		if _, err := ToMove(r, p); !errors.Is(err, engine.ErrOutOfBoard) {
			t.Errorf("ToMove(%v) = %v; want ErrOutOfBoard", p, err)
		}
	}
	for _, m := range []engine.Move{-1, 30} {
		if _, err := FromMove(r, m); err == nil {
			t.Errorf("FromMove(%d) = nil error", m)
		}
	}
	if _, err := ToMove(engine.Connect4(), Point{0, 0}); err == nil {
		t.Error("ToMove on Connect-4 = nil error")
	}
	for _, wh := range [][2]int{{4, 20}, {20, 4}, {129, 20}, {0, 0}} {
		if _, err := FreestyleRules(wh[0], wh[1]); err == nil {
			t.Errorf("FreestyleRules(%d, %d) = nil error", wh[0], wh[1])
		}
	}
	if w, h := BoardSize(r); w != 6 || h != 5 {
		t.Errorf("BoardSize = %d, %d; want 6, 5", w, h)
	}
}
