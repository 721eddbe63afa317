package solve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// Run parses each line with the engine's move-list parser and sends what
// a bot of either protocol version takes: one digit string to a bot that
// takes batches, a move per string to one that does not; bad lines are
// answered in their place.
func TestRunSendsWhatEachBotTakes(t *testing.T) {
	gomoku, err := engine.ParseRules("gomoku")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		rules  engine.Rules
		stream func(*fakeSolveStream) botapi.SolveStream
		in     string
		want   []string // prefixes of the answers
	}{
		{"batches, digits", engine.Connect4(), func(f *fakeSolveStream) botapi.SolveStream { return fakeBatchStream{f} },
			"4455 junk\n\n4444444\n12\n", []string{"4455 4", "0", "4444444 ? ", "12 2"}},
		{"one at a time, digits", engine.Connect4(), func(f *fakeSolveStream) botapi.SolveStream { return f },
			"4455\n12\n", []string{"4455 0", "12 0"}}, // the fake scores MoveList, empty here
		{"gomoku moves", gomoku, func(f *fakeSolveStream) botapi.SolveStream { return fakeBatchStream{f} },
			"h8, h9 what\nzz9\nh8 h8\n", []string{"h8 h9 0", "zz9 ? ", "h8 h8 ? "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var out strings.Builder
			st, err := Run(ctx, []botapi.SolveStream{tc.stream(newFakeSolveStream())}, Config{Rules: tc.rules}, strings.NewReader(tc.in), &out)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("answers %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("answer %d: %q, want %q…", i+1, got[i], w)
				}
			}
			bad := strings.Count(out.String(), " ? ")
			if st.Positions != int64(len(tc.want)-bad) {
				t.Errorf("%d positions counted, want %d", st.Positions, len(tc.want)-bad)
			}
		})
	}
}
