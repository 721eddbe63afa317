package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestThreadsSharedSets solves lines of the shared Connect-4 sets with
// two threads, helpers joining every search from its first few thousand
// nodes, exact, weak and analyzed, and compares every score with the
// file's: a few lines of each set by default (also under -race), whole
// sets with KINROW_LONG=1.
func TestThreadsSharedSets(t *testing.T) {
	long := os.Getenv("KINROW_LONG") != ""
	for _, tc := range []struct {
		set           string
		lines, analyz int
		longL, longA  int
	}{
		{"L3_R1", 60, 10, 1000, 1000},
		{"L2_R1", 20, 3, 1000, 1000},
		{"L1_R1", 30, 0, 1000, 20},
		{"L1_R3", 0, 0, 50, 5},
	} {
		n, na := tc.lines, tc.analyz
		if long {
			n, na = tc.longL, tc.longA
		}
		if n == 0 {
			continue
		}
		t.Run(tc.set, func(t *testing.T) {
			s, err := New(6, 7, 4, 16)
			if err != nil {
				t.Fatal(err)
			}
			s.SetThreads(2)
			s.helperFrom = 0
			for i, fl := range sharedSet(t, tc.set, n) {
				p := s.NewPosition()
				if _, err := s.PlaySequence(&p, fl[0]); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				want, err := strconv.Atoi(fl[1])
				if err != nil {
					t.Fatalf("line %d: score %q: %v", i+1, fl[1], err)
				}
				v, err := s.Solve(context.Background(), p, false)
				if err != nil || v != want {
					t.Fatalf("line %d %s: Solve = %d, %v; want %d", i+1, fl[0], v, err, want)
				}
				if v, err := s.Solve(context.Background(), p, true); err != nil || v != cmp.Compare(want, 0) {
					t.Fatalf("line %d %s: weak Solve = %d, %v; want %d", i+1, fl[0], v, err, cmp.Compare(want, 0))
				}
				if i < na {
					checkColumns(t, s, p, i+1, fl)
				}
			}
			if s.par.joined == 0 && tc.set != "L3_R1" && tc.set != "L2_R1" {
				t.Errorf("helpers never joined a search")
			}
			t.Logf("helpers joined %d searches", s.par.joined)
		})
	}
}

// TestThreadsCancel: a cancelled parallel search stops every thread and
// returns the context's error; the tables then still give exact answers,
// with one thread and with two.
func TestThreadsCancel(t *testing.T) {
	s, err := New(6, 7, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	s.SetThreads(2)
	s.helperFrom = 0
	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(300*time.Millisecond, cancel)
	defer stop.Stop()
	if _, err := s.Solve(ctx, s.NewPosition(), false); !errors.Is(err, context.Canceled) {
		t.Fatalf("Solve of the empty 6x7 board cancelled after 300 ms: %v, want context.Canceled", err)
	}
	if s.par.joined == 0 {
		t.Fatal("helpers never joined the search")
	}
	for _, threads := range []int{1, 2} {
		s.SetThreads(threads)
		p := s.NewPosition()
		if _, err := s.PlaySequence(&p, "4444443"); err != nil {
			t.Fatal(err)
		}
		v, err := s.Solve(context.Background(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		checkBestMove(t, s, p, v, fmt.Sprintf("threads %d, after a cancelled search", threads))
	}
}
