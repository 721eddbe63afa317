package testpos

import "testing"

// TestOf: the position holds the moves given, in order, under the rules
// named.
func TestOf(t *testing.T) {
	for _, tc := range []struct {
		rules, moves string
	}{
		{"connect4", ""},
		{"connect4", "4453"},
		{"gomoku", "a8 a1 b8 c1"},
		{"mnk:7x7x4", "a3 a1 c3 b1"},
	} {
		p := Of(t, tc.rules, tc.moves)
		if got := p.Rules().FormatMoveList(p.Moves(nil)); tc.moves != "" && got != tc.moves {
			t.Errorf("%s %q: moves %q", tc.rules, tc.moves, got)
		}
		if tc.moves == "" && p.Ply() != 0 {
			t.Errorf("%s: %d plies on the empty board", tc.rules, p.Ply())
		}
	}
}
