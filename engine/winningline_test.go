package engine

import (
	"slices"
	"testing"
)

// WinningLine follows the line rule: under exactly five, a stone that
// makes a six across and a five down has won by the five, and the line is
// the five (the copy in host/recordfmt returned the six, an overline).
func TestWinningLineFollowsTheLineRule(t *testing.T) {
	tests := []struct {
		rules string
		moves []string // x, o, x, ... the last one wins
		want  []string
	}{
		{"mnk:15x15x5:exact", []string{"a1", "a15", "b1", "b15", "c1", "c15", "e1", "d15", "f1", "f15",
			"d2", "h15", "d3", "j15", "d4", "k15", "d5", "m15", "d1"}, []string{"d1", "d2", "d3", "d4", "d5"}},
		{"gomoku", []string{"a1", "a15", "b1", "b15", "c1", "c15", "e1", "d15", "f1", "f15", "d1"},
			[]string{"a1", "b1", "c1", "d1", "e1", "f1"}},
		{"connect4", []string{"1", "1", "2", "2", "3", "3", "4"}, []string{"1", "2", "3", "4"}},
		{"tictactoe", []string{"a1", "b1"}, nil},
	}
	for _, tc := range tests {
		r, err := ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		p := NewPosition(r)
		for _, s := range tc.moves {
			m, err := r.ParseMove(s)
			if err != nil || p.Check(m) != nil {
				t.Fatalf("%s: move %s: %v %v", tc.rules, s, err, p.Check(m))
			}
			p.Play(m)
		}
		var got []string
		for _, cell := range p.WinningLine() {
			got = append(got, r.FormatMove(p.MoveOfCell(cell)))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: winning line %v, want %v", tc.rules, got, tc.want)
		}
	}
}
