package mics

import (
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
)

// at returns the cell of (row, col) on b.
func at(b *Board, row, col int) int { return row*b.cols + col }

// place marks xs for X and os for O, alternating, X first; len(os) must be
// len(xs) or len(xs)-1.
func place(t *testing.T, b *Board, xs, os [][2]int) {
	t.Helper()
	if len(os) != len(xs) && len(os) != len(xs)-1 {
		t.Fatalf("%d X stones and %d O stones cannot alternate", len(xs), len(os))
	}
	for i, x := range xs {
		b.Mark(at(b, x[0], x[1]))
		if i < len(os) {
			b.Mark(at(b, os[i][0], os[i][1]))
		}
	}
}

func TestClasses(t *testing.T) {
	far := [][2]int{{0, 0}, {0, 14}, {14, 0}, {14, 14}}
	tests := []struct {
		name   string
		rules  string
		xs, os [][2]int
		cell   [2]int
		side   int
		want   Class
	}{
		// X has four in a row 7: the ends win for X and are forced blocks for O.
		{"win", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 5}, {7, 6}}, far, [2]int{7, 7}, 0, Win},
		{"win other end", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 5}, {7, 6}}, far, [2]int{7, 2}, 0, Win},
		{"forced block", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 5}, {7, 6}}, far, [2]int{7, 7}, 1, Block},
		{"split four", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 6}, {7, 7}}, far, [2]int{7, 5}, 0, Win},
		{"blocked four is no win", "gomoku", [][2]int{{7, 3}, {7, 4}, {7, 5}, {7, 6}}, [][2]int{{7, 7}, {0, 0}, {0, 14}, {14, 0}}, [2]int{7, 8}, 0, Plain},
		// An open three: either end makes an open four, two windows one stone short.
		{"open three", "gomoku", [][2]int{{7, 4}, {7, 5}, {7, 6}}, far[:3], [2]int{7, 7}, 0, Double},
		{"stop open three", "gomoku", [][2]int{{7, 4}, {7, 5}, {7, 6}}, far[:3], [2]int{7, 7}, 1, StopDouble},
		{"three one window", "gomoku", [][2]int{{7, 4}, {7, 5}, {7, 6}}, far[:3], [2]int{7, 8}, 0, Plain},
		// A fork on 9x9x4: two lines of two meet at (4,4).
		{"fork", "mnk:9x9x4", [][2]int{{4, 1}, {4, 2}, {1, 4}, {2, 4}}, [][2]int{{8, 8}, {8, 0}, {0, 8}, {0, 0}}, [2]int{4, 4}, 0, Double},
		{"connect4 win", "connect4", [][2]int{{0, 0}, {1, 0}, {2, 0}}, [][2]int{{0, 1}, {1, 1}, {0, 2}}, [2]int{3, 0}, 0, Win},
		{"connect4 block", "connect4", [][2]int{{0, 0}, {1, 0}, {2, 0}}, [][2]int{{0, 1}, {1, 1}, {0, 2}}, [2]int{3, 0}, 1, Block},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBoard(testpos.Rules(t, tc.rules))
			place(t, b, tc.xs, tc.os)
			if got := b.Class(at(b, tc.cell[0], tc.cell[1]), tc.side); got != tc.want {
				t.Errorf("class of %v for side %d = %v, want %v", tc.cell, tc.side, got, tc.want)
			}
		})
	}
}

// TestClassesRankAboveSum checks that a win, a block, a double threat and
// the stop of one come first, in that order, before any plain cell, on a
// board where X has four, O an open three and many stones around.
func TestClassesRankAboveSum(t *testing.T) {
	b := NewBoard(testpos.Rules(t, "gomoku"))
	// X: four on row 2 (cols 2..5), open at both ends... blocked at col 1.
	// O: open three on row 10 (cols 5..7). Both sides have filler stones.
	xs := [][2]int{{2, 2}, {2, 3}, {2, 4}, {2, 5}, {12, 12}, {6, 6}}
	os := [][2]int{{2, 1}, {10, 5}, {10, 6}, {10, 7}, {5, 6}}
	place(t, b, xs, os) // 6 X, 5 O: O to move
	s := int(b.ToMove())
	if s != 1 {
		t.Fatalf("side to move %d, want O", s)
	}
	cands := b.Candidates(make([]Candidate, 0, 8), 8)
	want := []Class{Block, Double, Double}
	for i, w := range want {
		if got := b.Class(int(cands[i].Cell), s); got != w {
			t.Errorf("candidate %d (cell %d) is %v, want %v", i, cands[i].Cell, got, w)
		}
	}
	if c := int(cands[0].Cell); c != at(b, 2, 6) {
		t.Errorf("best cell %d, want the block %d", c, at(b, 2, 6))
	}
	// X to move instead: the win first.
	b.Mark(at(b, 0, 14))
	cands = b.Candidates(cands[:0], 8)
	if got := b.Class(int(cands[0].Cell), 0); got != Win || int(cands[0].Cell) != at(b, 2, 6) {
		t.Errorf("best for X: cell %d class %v, want the win %d", cands[0].Cell, got, at(b, 2, 6))
	}
	if got := b.Class(int(cands[1].Cell), 0); got != StopDouble {
		t.Errorf("second for X: class %v, want stop-double", got)
	}
	// Values are ordered by class whatever the sums.
	maxPlain := int64(0)
	for _, c := range b.Free() {
		if b.Class(int(c), 0) == Plain {
			maxPlain = max(maxPlain, b.Value(int(c), 0))
		}
	}
	if maxPlain >= classDouble {
		t.Errorf("a plain cell is worth %d ≥ the double-threat class %d", maxPlain, classDouble)
	}
}

// TestEmptyBoardPrefersCentre: with no stone, the cell in most windows wins.
func TestEmptyBoardPrefersCentre(t *testing.T) {
	for _, rules := range []string{"gomoku", "mnk:70x70x10", "tictactoe"} {
		b := NewBoard(testpos.Rules(t, rules))
		c := b.Candidates(make([]Candidate, 0, 1), 1)
		r, col := int(c[0].Cell)/b.cols, int(c[0].Cell)%b.cols
		if abs(2*r-(b.rows-1)) > 2 || abs(2*col-(b.cols-1)) > 2 {
			t.Errorf("%s: best empty-board cell (%d,%d), want the centre", rules, r, col)
		}
	}
}

// TestConnectXCandidates: one per non-full column, and the cells under the
// opponent's winning cells last.
func TestConnectXCandidates(t *testing.T) {
	b := NewBoard(testpos.Rules(t, "connect4"))
	// O has three on row 1 (cols 1..3): it wins at (1,0) and (1,4), both
	// over empty cells that X must not fill.
	place(t, b, [][2]int{{0, 1}, {0, 2}, {0, 6}, {1, 6}}, [][2]int{{0, 3}, {1, 1}, {1, 2}, {1, 3}})
	cands := b.Candidates(make([]Candidate, 0, 7), 7)
	if len(cands) != 7 {
		t.Fatalf("%d candidates, want 7", len(cands))
	}
	last := []int{int(cands[5].Cell), int(cands[6].Cell)}
	if min(last[0], last[1]) != at(b, 0, 0) || max(last[0], last[1]) != at(b, 0, 4) {
		t.Errorf("last candidates %v, want cells 0 and 4 (under O's wins)", last)
	}
}
