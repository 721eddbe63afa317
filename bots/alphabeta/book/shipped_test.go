package book

import (
	"math/bits"
	"strconv"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/c4set"
)

// shipped6x7 returns the shipped 6x7 book, skipping when there is none.
func shipped6x7(t *testing.T) *Book {
	t.Helper()
	b, err := Default(Geometry{Rows: 6, Cols: 7, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if b == nil {
		t.Skip("no 6x7 book shipped")
	}
	return b
}

// The shipped 6x7 book agrees with the exact scores of the shared test
// set Test_L1_R3 (Pascal Pons' solver's) on every position it holds (the
// sign of them for a weak entry), and a full book with the empty board's
// column scores; the file parses (Default).
func TestShippedBookAgreesWithTestSet(t *testing.T) {
	b := shipped6x7(t)
	// The empty board's columns (1..7): -2 -1 0 1 0 -1 -2 for the first
	// player, so each child's score for the second is the negation.
	if !b.Strategy && b.Plies >= 1 {
		for c, want := range []int{-2, -1, 0, 1, 0, -1, -2} {
			if got, ok := b.Score([]int{c}); !ok || -got != want {
				t.Errorf("column %d: book %d (%v), want %d", c+1, -got, ok, want)
			}
		}
	}
	if e, ok := b.Move(nil); ok && e.Move != 3 {
		t.Errorf("the empty board: the book plays column %d, only column 4 wins", e.Move+1)
	}
	held := func(fields []string) bool { return len(fields[0]) <= b.Plies }
	checked := 0
	for _, fields := range c4set.Read(t, "Test_L1_R3.txt", 0, held) {
		var cols []int
		for _, ch := range fields[0] {
			cols = append(cols, int(ch-'1'))
		}
		want, _ := strconv.Atoi(fields[1])
		bd, err := Play(b.Geometry, cols)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := b.Get(bd.Fold())
		if !ok {
			if !b.Strategy {
				t.Errorf("%s: not in the full book", fields[0])
			}
			continue
		}
		if e.Weak {
			want = min(max(want, -1), 1)
		}
		if e.Score != want {
			t.Errorf("%s: book %d (weak %v), test set %d", fields[0], e.Score, e.Weak, want)
		}
		checked++
	}
	t.Logf("%d positions of the test set checked", checked)
}

// The shipped strategy book is closed: from the empty board, every reply
// of the second player to the first player's book moves leads to a
// position the book decides, up to the book's plies for the first player
// (the deepest even ply it holds), and the same for the second player's
// strategy (every move of the first); it holds nothing else. A sample of
// its deepest entries (cheap to solve) equals the solver's values, and
// their moves reach them.
func TestShippedStrategyClosedAndProven(t *testing.T) {
	b := shipped6x7(t)
	if !b.Strategy {
		t.Skip("the shipped book is a full book")
	}
	xPlies, oPlies := strategyPlies(b)
	if xPlies < 0 {
		t.Fatal("the shipped book has no first player's strategy")
	}
	// Eight entries of the first player's last ply, two of the one
	// before and two of the second player's last, chosen by a hash of
	// their keys; shallower ones cost the solver minutes.
	picked := map[int]int{}
	sample := func(key uint64, ply int) bool {
		want := map[int]int{xPlies: 8, xPlies - 2: 2, oPlies: 2}[ply]
		if picked[ply] < want && (key*0x9E3779B97F4A7C15)>>59 == 5 {
			picked[ply]++
			return true
		}
		return false
	}
	n := walkStrategy(t, b, xPlies, oPlies, sample)
	if n != b.Len() {
		t.Errorf("the strategies reach %d positions, the book holds %d", n, b.Len())
	}
	// Built with --slowest-loss: every lost position holds its exact
	// score (its move the slowest loss; walkStrategy checks the sampled
	// ones), the second player's after column 4 among them: column 4,
	// -1 (the first player wins with its last stone).
	for _, p := range lostPositions(b, xPlies, oPlies) {
		if e, _ := b.MoveAt(p.bd); e.Weak {
			t.Errorf("%s: a lost position whose entry holds only the sign, %+v", FormatCols(p.cols), e)
		}
	}
	if e, ok := b.Move([]int{3}); !ok || e.Weak || e.Move != 3 || e.Score != -1 {
		t.Errorf("after column 4 the book holds %+v (%v), want column 4, exact score -1", e, ok)
	}
	t.Logf("%d positions reached (first player to %d plies, second to %d); the book holds %d", n, xPlies, oPlies, b.Len())
}

// strategyPlies returns the deepest ply of each side's positions in b
// (-1 for none): the first player's are the positions of an even number
// of stones.
func strategyPlies(b *Book) (int, int) {
	x, o := -1, -1
	for _, k := range b.keys {
		if n := keyStones(b.Geometry, k); n%2 == 0 {
			x = max(x, n)
		} else {
			o = max(o, n)
		}
	}
	return x, o
}

// keyStones is the number of stones of a position from its key: a
// column of h stones holds 2^h-1 (its stones) plus a subset of them (the
// side to move's), so h is the bit length of that plus one, less one.
func keyStones(g Geometry, key uint64) int {
	h := g.Rows + 1
	n := 0
	for c := range g.Cols {
		v := (key >> uint(c*h)) & (1<<uint(h) - 1)
		n += bits.Len64(v+1) - 1
	}
	return n
}
