package solver

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestNoGrowthUnderAShortDeadline: a search with less than growTime left
// never grows the large table (a growth costs tens of milliseconds a move
// cannot spare), and the same search with more time left does grow it.
func TestNoGrowthUnderAShortDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		grow    bool
	}{
		{"300ms deadline", 300 * time.Millisecond, false},
		{"3s deadline", 3 * time.Second, true}, // more than growTime left at first
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(6, 7, 4, 64)
			if err != nil {
				t.Fatal(err)
			}
			// A small large table to begin with: it fills within
			// milliseconds of CPU, so a loaded machine still fills it
			// while more than growTime is left (at load 16, 3 s of wall
			// time did not fill the default one).
			s.far.reset(int(s.far.slots+s.far.shift), 10)
			start := s.far.slots
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			_, err = s.Solve(ctx, s.NewPosition(), false) // the empty board: far from solved in time
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				t.Fatalf("Solve of the empty board: %v, want it stopped", err)
			}
			if grew := s.far.slots > start; grew != tc.grow {
				t.Errorf("large table grew: %v (slots %d -> %d), want %v", grew, start, s.far.slots, tc.grow)
			}
		})
	}
}
