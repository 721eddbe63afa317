package sdk

import (
	"errors"
	"slices"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

func TestAnalyzeMoves(t *testing.T) {
	// byLastMove values a position by the move that led to it: 10 times
	// its number, so each listed score tells which move it belongs to
	// (tictactoe cells count from a1 = 0 along the bottom row).
	byLastMove := func(q *engine.Position) (int, bool, error) { return 10 * int(q.LastMove()), true, nil }
	tests := []struct {
		name       string
		rules      string
		moves      string
		value      Valuer
		wantScores []int
		wantValid  []bool
		wantOK     bool
	}{
		{"gravity lists a full column as not valid", "connectx:3x3x3", "1 1 1", byLastMove,
			[]int{0, -10, -20}, []bool{false, true, true}, true},
		{"free placement leaves occupied cells out, wins at once score win", "tictactoe", "a1 b1 a2 b2", byLastMove,
			[]int{-20, -50, 99, -70, -80}, []bool{true, true, true, true, true}, true},
		{"a draw at once scores 0", "tictactoe", "a1 b1 c1 b2 a2 a3 b3 c2", byLastMove,
			[]int{0}, []bool{true}, true},
		{"an unknown value drops the lists", "connect4", "", func(*engine.Position) (int, bool, error) { return 0, false, nil },
			nil, nil, false},
		{"an error drops the lists", "connect4", "4", func(*engine.Position) (int, bool, error) { return 0, true, errors.New("timeout") },
			nil, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := engine.ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			moves, err := r.ParseMoveList(tc.moves)
			if err != nil {
				t.Fatal(err)
			}
			pos := engine.NewPosition(r)
			if err := pos.PlayMoveList(moves); err != nil {
				t.Fatal(err)
			}
			before := pos.Moves(nil)
			scores, valid, ok := AnalyzeMoves(pos, 99, tc.value)
			if ok != tc.wantOK || !slices.Equal(scores, tc.wantScores) || !slices.Equal(valid, tc.wantValid) {
				t.Errorf("AnalyzeMoves = %v %v %v; want %v %v %v", scores, valid, ok, tc.wantScores, tc.wantValid, tc.wantOK)
			}
			if !slices.Equal(pos.Moves(nil), before) {
				t.Errorf("the position changed: %v, was %v", pos.Moves(nil), before)
			}
		})
	}
}
