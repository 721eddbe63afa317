package gtpfront

import (
	"context"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
	"github.com/kinrow/kinrow/protocol/botapi"
)

func TestFormatSolve(t *testing.T) {
	tests := []struct {
		moves         string
		r             botapi.SolveReply
		analyze, weak bool
		want          string
	}{
		{"4453", botapi.SolveReply{Known: true, Score: -2}, false, false, "4453 -2"},
		{"4453", botapi.SolveReply{Known: true, Score: -2}, false, true, "4453 -1"},
		{"", botapi.SolveReply{Known: true, Score: 0}, false, false, "0"},
		{"11", botapi.SolveReply{Known: true, Score: 3, Scores: []int{-5, 3, 1}, Valid: []bool{false, true, true}}, true, false, "11 3 - 3 1"},
		{"11", botapi.SolveReply{Known: true, Score: 3, Scores: []int{-5, 3, 0}, Valid: []bool{true, true, true}}, true, true, "11 1 -1 1 0"},
		{"9", botapi.SolveReply{Error: "illegal move"}, false, false, "9 ? illegal move"},
		{"1", botapi.SolveReply{}, false, false, "1 ? unknown: not solved within the time limit"},
	}
	for _, tc := range tests {
		if got := FormatSolve(tc.moves, tc.r, tc.analyze, tc.weak); got != tc.want {
			t.Errorf("FormatSolve(%q, %+v) = %q, want %q", tc.moves, tc.r, got, tc.want)
		}
	}
}

// solvingLoader loads fake players that "solve" by answering the number of
// moves.
type solvingLoader struct{ fakeLoader }

func (l *solvingLoader) Load(_ context.Context, _, display string, _ map[string]string) (referee.Player, error) {
	return &refereetest.Player{Label: display, Solver: func(req botapi.SolveRequest) botapi.SolveReply {
		return botapi.SolveReply{ID: req.ID, Known: true, Score: len(req.Moves)}
	}}, nil
}

func TestKinrowSolve(t *testing.T) {
	ctx := context.Background()
	s := New(Config{Loader: &solvingLoader{}, Rules: engine.Connect4()})
	for _, cmd := range []string{"play x 4", "play o 4", "play x 5"} {
		f := strings.Fields(cmd)
		if _, err := s.Do(ctx, f[0], f[1:]); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Do(ctx, "kinrow-solve", nil); err != nil || got != "3" {
		t.Errorf("kinrow-solve = %q, %v", got, err)
	}
	if _, err := s.Do(ctx, "kinrow-solve", []string{"deep"}); err == nil || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("kinrow-solve deep: %v", err)
	}
	plain := New(Config{Loader: &fakeLoader{}, Rules: engine.Connect4()})
	if _, err := plain.Do(ctx, "kinrow-solve", nil); err == nil || !strings.Contains(err.Error(), "cannot solve") {
		t.Errorf("kinrow-solve with a bot that does not solve: %v", err)
	}
}
