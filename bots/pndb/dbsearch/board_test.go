package dbsearch

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// sameBoard compares a board's cells, window counts and hot sets with those
// of a fresh board loaded from pos.
func sameBoard(t *testing.T, got *board, pos *engine.Position) {
	t.Helper()
	want := newBoard(pos.Rules())
	want.load(pos)
	equalBoards(t, got, want)
}

// equalBoards compares two boards' cells, window counts and hot sets.
func equalBoards(t *testing.T, got, want *board) {
	t.Helper()
	if !slices.Equal(got.cells, want.cells) || got.full != want.full {
		t.Fatalf("cells or full counts differ")
	}
	for s := 0; s < 2; s++ {
		if !slices.Equal(got.cnt, want.cnt) {
			t.Fatalf("window counts differ")
		}
		for tier := 1; tier <= maxTier; tier++ {
			a := slices.Sorted(slices.Values(got.hot[s][tier]))
			b := slices.Sorted(slices.Values(want.hot[s][tier]))
			if !slices.Equal(a, b) {
				t.Fatalf("side %d tier %d hot windows differ: %v, want %v", s, tier, a, b)
			}
			for i, w := range got.hot[s][tier] {
				if got.hotIdx[w][s] != int32(i) {
					t.Fatalf("side %d tier %d: window %d at %d, index says %d", s, tier, w, i, got.hotIdx[w][s])
				}
			}
		}
	}
}

// TestBoardRestored: after searches on random positions, for both sides,
// the search board is exactly a fresh load of the last position (every
// threat applied was taken back, the incremental load is right).
func TestBoardRestored(t *testing.T) {
	for _, rs := range []string{"mnk:6x6x4", "connectx:6x7x4", "mnk:9x9x5", "mnk:3x3x3"} {
		t.Run(rs, func(t *testing.T) {
			r, s, rng := defaultSearcher(t, rs, 5)
			for i := 0; i < 40; i++ {
				pos := randomPosition(r, rng, rng.IntN(r.Cells()/2+1))
				if pos == nil {
					continue
				}
				for _, a := range []engine.Color{engine.X, engine.O} {
					if _, err := s.Search(context.Background(), pos, a); err != nil {
						t.Fatal(err)
					}
					sameBoard(t, s.b, pos)
				}
			}
		})
	}
}

// stopAfter is a context whose Err turns to Canceled after n calls.
type stopAfter struct {
	context.Context
	n int
}

func (c *stopAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestCancelMidSearch: a context that ends during a long search stops it
// with the context's error, and the search board is left as loaded.
func TestCancelMidSearch(t *testing.T) {
	positions := quietGames(t, 4)
	s, err := New(positions[0].Rules(), Options{MaxNodes: 1 << 20, MaxSequences: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for _, pos := range positions {
		for _, a := range []engine.Color{engine.X, engine.O} {
			_, err := s.Search(&stopAfter{Context: context.Background(), n: 2}, pos, a)
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err %v, want context.Canceled", err)
				}
				stopped++
			}
			sameBoard(t, s.b, pos)
		}
	}
	if stopped == 0 {
		t.Error("no search lasted past two context checks: the test shows nothing")
	}
}
