package quick

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/search"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/bots/internal/testpos"
)

// TestAgainstSearch measures (opt-in: KINROW_QUICK_MS=10, the time of a
// move in milliseconds; KINROW_QUICK_SET, default Test_L1_R3.txt) how
// often the quick search and the engine-board search (package search),
// given the same time, choose a move that keeps the position's outcome,
// over the shared set's positions where some move gives it up
// (docs/PERFORMANCE.md). It asserts nothing about strength: a timed
// figure is a measurement, not a test.
func TestAgainstSearch(t *testing.T) {
	ms, err := strconv.Atoi(os.Getenv("KINROW_QUICK_MS"))
	if err != nil || ms <= 0 {
		t.Skip("a measurement: set KINROW_QUICK_MS to the milliseconds a move")
	}
	set := os.Getenv("KINROW_QUICK_SET")
	if set == "" {
		set = "Test_L1_R3.txt"
	}
	sv, err := solver.New(6, 7, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	q := New(6, 7, 4, 16)
	g, err := search.New(testpos.Rules(t, "connect4"), search.Options{TTMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	const full = -1 << 20
	var n, keptQ, keptG int
	for _, f := range c4set.Read(t, set, 0, nil) {
		scores := make([]int, 7)
		best, worst := -2, 2
		for c := range scores {
			scores[c] = full
			if f[2+c] != "-" {
				scores[c], _ = strconv.Atoi(f[2+c])
				best, worst = max(best, sign(scores[c])), min(worst, sign(scores[c]))
			}
		}
		if worst == best {
			continue // every move keeps the outcome
		}
		n++
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(ms)*time.Millisecond)
		c, _, err := q.BestMove(ctx, position(t, sv, f[0]), nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if sign(scores[c]) == best {
			keptQ++
		}
		ctx, cancel = context.WithTimeout(context.Background(), time.Duration(ms)*time.Millisecond)
		m, _, err := g.BestMove(ctx, testpos.Of(t, "connect4", f[0]), nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if sign(scores[int(m)]) == best {
			keptG++
		}
	}
	if n == 0 {
		t.Fatalf("%s: no position where a move gives the outcome up", set)
	}
	pc := func(k int) float64 { return 100 * float64(k) / float64(n) }
	t.Logf("%s, %d ms a move, %d positions: quick keeps the outcome in %d (%.1f%%), search in %d (%.1f%%)", set, ms, n, keptQ, pc(keptQ), keptG, pc(keptG))
}
