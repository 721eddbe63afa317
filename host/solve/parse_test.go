package solve

import (
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// TestPositionParser: the move list at the start of a line, its echo, and
// the reasons a line is refused, for digit lists (Connect-4) and move
// notation (gomoku).
func TestPositionParser(t *testing.T) {
	for _, tc := range []struct {
		rules, line string
		echo        string
		moves       string // the moves sent, space-separated ("" for a digit list)
		list        bool
		err         string // a part of the error, "" for none
	}{
		{"connect4", "4455 3 -2 -1", "4455", "", true, ""},
		{"connect4", "  4455\t7", "4455", "", true, ""},
		{"connect4", ",4455,7", "4455", "", true, ""},
		{"connect4", "4455\r", "4455", "", true, ""},
		{"connect4", "", "", "", false, ""},
		{"connect4", "   ", "", "", false, ""},
		{"connect4", "4444444", "4444444", "", false, "full"},
		{"connect4", "12121212", "12121212", "", false, "game is over"},
		{"connect4", "448x", "448x", "", false, "column 8"},
		{"connect4", "08", "08", "", false, "0"},
		{"gomoku", "h8 h9, j10 what", "h8 h9 j10", "h8 h9 j10", false, ""},
		{"gomoku", "zz9", "zz9", "", false, "zz9"},
		{"gomoku", "h8 h8", "h8 h8", "", false, "occupied"},
	} {
		r, err := engine.ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		pp := newPositionParser(r)
		echo, moves, list, err := pp.parse(tc.line)
		if echo != tc.echo || strings.Join(moves, " ") != tc.moves || list != tc.list {
			t.Errorf("%s %q: echo %q, moves %q, list %v; want %q, %q, %v", tc.rules, tc.line, echo, moves, list, tc.echo, tc.moves, tc.list)
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s %q: %v", tc.rules, tc.line, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %q: error %v, want one naming %q", tc.rules, tc.line, err, tc.err)
		}
	}
}

// FuzzPositionParser: any line is either refused or gives a move list that
// plays legally from the empty board; the echo is what the line begins
// with (separators aside); the parser's board is rewound for every line.
func FuzzPositionParser(f *testing.F) {
	for _, s := range []string{"4455 3", "4444444", "12121212", "", ",7,", "h8 h9", "1 2 3"} {
		f.Add(s)
	}
	c4 := newPositionParser(engine.Connect4())
	gomoku, err := engine.ParseRules("gomoku")
	if err != nil {
		f.Fatal(err)
	}
	g := newPositionParser(gomoku)
	f.Fuzz(func(t *testing.T, line string) {
		for _, pp := range []*positionParser{c4, g} {
			echo, moves, list, err := pp.parse(line)
			if err != nil {
				continue
			}
			var ms []engine.Move
			if list {
				if ms, err = pp.rules.ParseMoveList(echo); err != nil {
					t.Fatalf("%q: the echo %q of an accepted list does not parse: %v", line, echo, err)
				}
			} else {
				for _, s := range moves {
					m, err := pp.rules.ParseMove(s)
					if err != nil {
						t.Fatalf("%q: accepted move %q does not parse: %v", line, s, err)
					}
					ms = append(ms, m)
				}
			}
			if err := engine.NewPosition(pp.rules).PlayMoveList(ms); err != nil {
				t.Fatalf("%q: accepted, but %v", line, err)
			}
		}
	})
}
