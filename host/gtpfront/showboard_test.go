package gtpfront

import (
	"context"
	"strings"
	"testing"
)

// showboard puts the last move in parentheses and a winning line in
// capitals, the columns where they were; help describes every command.
func TestShowboardMarksAndHelp(t *testing.T) {
	tests := []struct {
		rules string
		moves []string // played x, o, x, ...
		want  []string // lines the board must hold
		last  string
	}{
		{"connect4", []string{"4", "4", "5", "5", "6", "6", "7"},
			[]string{" . . . o o o .", " . . . X X X(X)"}, "(last move 7)"},
		{"connect4", []string{"4", "4"},
			[]string{" . . .(o). . .", " . . . x . . ."}, "(last move 4)"},
		{"tictactoe", []string{"a1", "b1", "b2", "c1", "c3"},
			[]string{"3 . .(X)3", "2 . X . 2", "1 X o o 1"}, "(last move c3)"},
		{"mnk:12x12x3", []string{"l12", "a1"},
			[]string{"12 . . . . . . . . . . x . 12", " 1(o). . . . . . . . . . . 1"}, "(last move a1)"},
	}
	for _, tc := range tests {
		s, _ := newServer(tc.rules)
		ctx := context.Background()
		if _, err := s.cmdRules(ctx, []string{tc.rules}); err != nil {
			t.Fatal(err)
		}
		for i, m := range tc.moves {
			if _, err := s.cmdPlay(ctx, []string{[]string{"x", "o"}[i%2], m}); err != nil {
				t.Fatalf("%s: play %s: %v", tc.rules, m, err)
			}
		}
		board, err := s.cmdShowboard(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(board, "\n")
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				found = found || l == w
			}
			if !found {
				t.Errorf("%s %v: no line %q in\n%s", tc.rules, tc.moves, w, board)
			}
		}
		if !strings.HasSuffix(board, tc.last) {
			t.Errorf("%s: the status does not end with %q:\n%s", tc.rules, tc.last, board)
		}
		// The marks take only spaces: without them the engine's diagram.
		unmarked := strings.NewReplacer("(", " ", ")", " ", "X", "x", "O", "o").Replace(board)
		if !strings.Contains(unmarked, s.game.Position().Diagram()) {
			t.Errorf("%s: the marked board moved the cells:\n%s\nwant\n%s", tc.rules, board, s.game.Position().Diagram())
		}
	}

	s, _ := newServer("connect4")
	help, err := s.cmdHelp(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(help, "\n")
	if len(lines) != len(s.cmds) {
		t.Errorf("help has %d lines for %d commands", len(lines), len(s.cmds))
	}
	for name := range s.cmds {
		if commandHelp()[name] == "" {
			t.Errorf("help has no description of %s", name)
		}
	}
}
