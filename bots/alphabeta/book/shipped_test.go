package book

import (
	"strconv"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/c4set"
)

// The shipped 6x7 book agrees with the exact scores of the shared test
// set Test_L1_R3 (Pascal Pons' solver's) on every position it holds, and
// with the empty board's column scores; the file parses (Default).
func TestShippedBookAgreesWithTestSet(t *testing.T) {
	g := Geometry{Rows: 6, Cols: 7, K: 4}
	b, err := Default(g)
	if err != nil {
		t.Fatal(err)
	}
	if b == nil {
		t.Skip("no 6x7 book shipped")
	}
	// The empty board's columns (1..7): -2 -1 0 1 0 -1 -2 for the first
	// player, so each child's score for the second is the negation.
	if b.Plies >= 1 {
		for c, want := range []int{-2, -1, 0, 1, 0, -1, -2} {
			if got, ok := b.Score([]int{c}); !ok || -got != want {
				t.Errorf("column %d: book %d (%v), want %d", c+1, -got, ok, want)
			}
		}
	}
	held := func(fields []string) bool { return len(fields[0]) <= b.Plies }
	checked := 0
	for _, fields := range c4set.Read(t, "Test_L1_R3.txt", 0, held) {
		var cols []int
		for _, ch := range fields[0] {
			cols = append(cols, int(ch-'1'))
		}
		want, _ := strconv.Atoi(fields[1])
		if got, ok := b.Score(cols); !ok || got != want {
			t.Errorf("%s: book %d (%v), test set %d", fields[0], got, ok, want)
		}
		checked++
	}
	t.Logf("%d positions of the test set checked", checked)
}
