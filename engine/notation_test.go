package engine

import (
	"slices"
	"strings"
	"testing"
)

func TestColumnLabels(t *testing.T) {
	r := Rules{MNK, 70, 70, 10, Freestyle}
	tests := map[int]string{0: "a", 7: "h", 8: "j", 24: "z", 25: "aa", 26: "ab", 49: "az", 50: "ba", 69: "bu"}
	for col, want := range tests {
		if got := r.ColumnLabel(col); got != want {
			t.Errorf("ColumnLabel(%d) = %q, want %q", col, got, want)
		}
	}
}

func TestParseMove(t *testing.T) {
	c4 := Connect4()
	gomoku, _ := ParseRules("gomoku")
	big, _ := ParseRules("mnk:70x70x10")
	tests := []struct {
		rules Rules
		in    string
		want  Move
		err   string
	}{
		{c4, "1", 0, ""},
		{c4, "7", 6, ""},
		{c4, " 4 ", 3, ""},
		{c4, "0", NoMove, "outside the board"},
		{c4, "8", NoMove, "outside the board"},
		{c4, "-1", NoMove, "invalid move"},
		{c4, "+3", NoMove, "invalid move"},
		{c4, "a1", NoMove, "invalid move"},
		{c4, "", NoMove, "invalid move"},
		{gomoku, "a1", 0, ""},
		{gomoku, "H8", 7*15 + 7, ""},
		{gomoku, "j1", 8, ""},
		{gomoku, "i5", NoMove, "invalid move"},
		{gomoku, "p1", 14, ""},
		{gomoku, "q1", NoMove, "outside the board"},
		{gomoku, "a16", NoMove, "outside the board"},
		{gomoku, "a0", NoMove, "invalid move"},
		{gomoku, "a", NoMove, "invalid move"},
		{gomoku, "8", NoMove, "invalid move"},
		{gomoku, "h8x", NoMove, "invalid move"},
		{big, "aa1", 25, ""},
		{big, "bu70", 69*70 + 69, ""},
		{big, "bv1", NoMove, "outside the board"},
	}
	for _, tc := range tests {
		got, err := tc.rules.ParseMove(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("%v ParseMove(%q) = %v, %v; want %v", tc.rules, tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v ParseMove(%q) error = %v; want %q", tc.rules, tc.in, err, tc.err)
		}
	}
}

func TestEveryMovePrintsAndParsesBack(t *testing.T) {
	for _, s := range []string{"connect4", "connectx:38x58x12", "tictactoe", "gomoku", "mnk:70x70x10", "mnk:128x128x5"} {
		r, _ := ParseRules(s)
		n := r.Cols
		if r.Kind == MNK {
			n = r.Cells()
		}
		for m := Move(0); int(m) < n; m++ {
			text := r.FormatMove(m)
			back, err := r.ParseMove(strings.ToUpper(text))
			if err != nil || back != m {
				t.Fatalf("%s: move %d prints %q, parses back to %d, %v", s, m, text, back, err)
			}
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"4", "h8", "aa12", "bv70", "zz", "0", "i9", "A1"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		rules := []Rules{Connect4(), {MNK, 15, 15, 5, Freestyle}, {MNK, 70, 70, 10, Freestyle}, {ConnectX, 38, 58, 12, Freestyle}}
		r := rules[int(which)%len(rules)]
		m, err := r.ParseMove(s)
		if err != nil {
			return
		}
		text := r.FormatMove(m)
		back, err := r.ParseMove(text)
		if err != nil || back != m {
			t.Fatalf("%v: %q -> %d prints %q -> %d, %v", r, s, m, text, back, err)
		}
	})
}

func TestParseMoveList(t *testing.T) {
	c4 := Connect4()
	gomoku, _ := ParseRules("gomoku")
	tests := []struct {
		rules Rules
		in    string
		want  string // FormatMoveList of the result
		err   string
	}{
		{c4, "4453", "4453", ""},
		{c4, "4 4 5,3", "4453", ""},
		{c4, "", "", ""},
		{c4, "448", "", "move 3"},
		{gomoku, "h8 h9,j10", "h8 h9 j10", ""},
		{gomoku, "h8 zz", "", "move 2"},
		{Rules{ConnectX, 6, 12, 4, Freestyle}, "10 11 1", "10 11 1", ""},
	}
	for _, tc := range tests {
		got, err := tc.rules.ParseMoveList(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseMoveList(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || tc.rules.FormatMoveList(got) != tc.want {
			t.Errorf("ParseMoveList(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseMoveList(f *testing.F) {
	f.Add("4453", uint8(0))
	f.Add("h8 h9,j10", uint8(1))
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		rules := []Rules{Connect4(), {MNK, 15, 15, 5, Freestyle}, {ConnectX, 6, 12, 4, Freestyle}}
		r := rules[int(which)%len(rules)]
		moves, err := r.ParseMoveList(s)
		if list := strings.TrimSpace(s); r.Gravity() && r.Cols <= 9 && list != "" && !strings.ContainsAny(list, " ,\t") {
			// A digit list reads as ParseMove reads each character.
			var each []Move
			var eachErr error
			for i := range len(list) {
				m, err := r.ParseMove(list[i : i+1])
				if err != nil {
					eachErr = err
					break
				}
				each = append(each, m)
			}
			if (err == nil) != (eachErr == nil) || (err == nil && !slices.Equal(moves, each)) {
				t.Fatalf("%q: the list reads %v (%v), each character %v (%v)", s, moves, err, each, eachErr)
			}
		}
		if err != nil {
			return
		}
		back, err := r.ParseMoveList(r.FormatMoveList(moves))
		if err != nil || len(back) != len(moves) {
			t.Fatalf("round trip of %q: %v, %v", s, back, err)
		}
		for i := range back {
			if back[i] != moves[i] {
				t.Fatalf("round trip of %q differs at %d", s, i)
			}
		}
	})
}
