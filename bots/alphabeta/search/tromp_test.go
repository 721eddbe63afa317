package search

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestTrompBoards proves John Tromp's published Connect-X results from the
// empty board (rows first). The larger ones need KINROW_LONG=1.
func TestTrompBoards(t *testing.T) {
	tests := []struct {
		rules string
		want  int
		long  bool
	}{
		{"connectx:4x4x4", 0, false},
		{"connectx:4x5x4", 0, false},
		{"connectx:6x4x4", 0, true},
		{"connectx:4x6x4", -1, true},
		{"connectx:5x5x4", 0, true},
		{"connectx:5x6x4", 0, true},
	}
	for _, tc := range tests {
		if tc.long && !testingLong() {
			continue
		}
		t.Run(tc.rules, func(t *testing.T) {
			r := testpos.Rules(t, tc.rules)
			s, _ := New(r, Options{TTMiB: 256})
			start := time.Now()
			v, _, err := s.Solve(context.Background(), engine.NewPosition(r))
			if err != nil {
				t.Fatal(err)
			}
			if v != tc.want {
				t.Errorf("%s: %d, want %d", tc.rules, v, tc.want)
			}
			t.Logf("%s: %d in %v (%d nodes)", tc.rules, v, time.Since(start), s.Nodes())
		})
	}
}
