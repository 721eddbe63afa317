package wide

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// bandGame plays random games where each side prefers its own band of
// columns, so that long lines of one colour (and so wins for large k)
// appear; pick returns the next column of such a game on p.
type bandGame struct {
	rng   *rand.Rand
	bands [2][2]int // [side] = {first column, width}
	focus float64   // probability of playing in one's band
}

func newBandGame(rng *rand.Rand, cols, k int) *bandGame {
	g := &bandGame{rng: rng, focus: rng.Float64()}
	for s := range 2 {
		w := 1 + rng.IntN(min(cols, k+2))
		g.bands[s] = [2]int{rng.IntN(cols - w + 1), w}
	}
	return g
}

func (g *bandGame) pick(p *engine.Position) engine.Move {
	s := int(p.ToMove())
	if g.rng.Float64() < g.focus {
		b := g.bands[s]
		for range 4 {
			if m := engine.Move(b[0] + g.rng.IntN(b[1])); p.Legal(m) {
				return m
			}
		}
	}
	legal := p.LegalMoves(nil)
	return legal[g.rng.IntN(len(legal))]
}

// checkCells compares the board's winning cells of both sides in columns
// lo..hi with engine's WinsAt (which counts the lines through a cell on
// its own, cell by cell), and the board's stones with engine's.
func checkCells(t *testing.T, b *Board, p *engine.Position, lo, hi int) {
	t.Helper()
	r := p.Rules()
	for c := max(lo, 0); c <= min(hi, r.Cols-1); c++ {
		if b.Height(c) != p.Height(c) {
			t.Fatalf("%s: column %d height %d, engine %d", r.FormatMoveList(p.Moves(nil)), c+1, b.Height(c), p.Height(c))
		}
		for row := 0; row < r.Rows; row++ {
			if got, want := b.At(row, c), int(p.At(row, c)); got != want {
				t.Fatalf("%s: cell %d,%d holds %d, engine %d", r.FormatMoveList(p.Moves(nil)), row, c, got, want)
			}
			if row < p.Height(c) {
				continue
			}
			for s := range 2 {
				got := b.IsWinningCell(s, row, c)
				want := p.WinsAt(row*r.Cols+c, engine.Color(s))
				if got != want {
					t.Fatalf("%s: side %d, cell row %d col %d: winning %v, engine %v", r.FormatMoveList(p.Moves(nil)), s, row+1, c+1, got, want)
				}
			}
		}
	}
}

// TestBoardAgainstEngine plays random games on many board sizes on both a
// Board and engine's Position (an independent implementation) and
// compares, move by move, the win check and every winning cell of both
// sides; it also takes moves back at random and checks that Undo restores
// the keys, the window sums and the winning cells.
func TestBoardAgainstEngine(t *testing.T) {
	type tc struct {
		rows, cols, k, games int
	}
	tests := []tc{
		{6, 7, 4, 30}, {4, 5, 4, 30}, {9, 9, 5, 20}, {10, 7, 3, 20}, {8, 8, 2, 10},
		{64, 5, 6, 6}, {63, 3, 63, 2}, {64, 2, 40, 2}, {3, 128, 12, 6}, {12, 12, 12, 10}, {5, 40, 9, 6},
		{20, 20, 7, 6}, {64, 128, 10, 1}, {1, 30, 5, 6}, {30, 1, 5, 6},
	}
	for k := 3; k <= 12; k++ {
		tests = append(tests, tc{38, 58, k, 2})
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%dx%dx%d", tc.rows, tc.cols, tc.k)
		t.Run(name, func(t *testing.T) {
			r, err := engine.NewRules(engine.ConnectX, tc.rows, tc.cols, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			b, err := NewBoard(tc.rows, tc.cols, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(tc.rows), uint64(tc.cols*1000+tc.k)))
			wins, plies := 0, 0
			for range tc.games {
				b.Reset()
				p := engine.NewPosition(r)
				g := newBandGame(rng, tc.cols, tc.k)
				full := r.Cells() <= 200
				for p.Result() == engine.Open {
					m := g.pick(p)
					if got, want := b.IsWinningMove(int(m)), p.WinsAt(p.Cell(m), p.ToMove()); got != want {
						t.Fatalf("%s + %d: IsWinningMove %v, engine %v", r.FormatMoveList(p.Moves(nil)), m+1, got, want)
					}
					k1, k2 := b.Key()
					sums := b.windows.sum
					if rng.IntN(10) == 0 { // play, undo, compare
						b.Play(int(m))
						b.Undo()
						if k1b, k2b := b.Key(); k1b != k1 || k2b != k2 || b.windows.sum != sums {
							t.Fatalf("%s: Undo did not restore keys or window sums", r.FormatMoveList(p.Moves(nil)))
						}
						checkCells(t, b, p, int(m)-tc.k, int(m)+tc.k)
					}
					b.Play(int(m))
					p.Play(m)
					plies++
					if b.Won() != (p.Result() == engine.XWins || p.Result() == engine.OWins) {
						t.Fatalf("%s: Won %v, engine result %v", r.FormatMoveList(p.Moves(nil)), b.Won(), p.Result())
					}
					if b.Over() != (p.Result() != engine.Open) {
						t.Fatalf("%s: Over %v, engine result %v", r.FormatMoveList(p.Moves(nil)), b.Over(), p.Result())
					}
					if b.Won() {
						wins++
						break
					}
					if full || plies%50 == 0 {
						checkCells(t, b, p, 0, tc.cols-1)
					} else {
						checkCells(t, b, p, int(m)-tc.k, int(m)+tc.k)
					}
				}
				checkSums(t, b)
			}
			t.Logf("%d plies, %d games won", plies, wins)
		})
	}
}

// checkSums recomputes the window sums from the stones.
func checkSums(t *testing.T, b *Board) {
	t.Helper()
	var want [2]int64
	for d := range 4 {
		dr, dc := engine.Direction(d)
		for c := 0; c < b.cols; c++ {
			for r := 0; r < b.rows; r++ {
				ec, er := c+(b.k-1)*dc, r+(b.k-1)*dr
				if ec < 0 || ec >= b.cols || er < 0 || er >= b.rows {
					continue
				}
				var n [2]int
				for i := 0; i < b.k; i++ {
					if s := b.At(r+i*dr, c+i*dc); s >= 0 {
						n[s]++
					}
				}
				for s := range 2 {
					if n[s] > 0 && n[s^1] == 0 {
						want[s] += b.windows.w[n[s]]
					}
				}
			}
		}
	}
	if want != b.windows.sum {
		t.Fatalf("window sums %v, recomputed %v", b.windows.sum, want)
	}
}

// TestNewBoardLimits: the sizes a Board refuses.
func TestNewBoardLimits(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		ok            bool
	}{
		{64, 128, 128, true}, {65, 10, 4, false}, {10, 129, 4, false}, {0, 5, 2, false},
		{6, 7, 1, false}, {6, 7, 8, false}, {1, 1, 2, false}, {38, 58, 12, true},
	}
	for _, tc := range tests {
		_, err := NewBoard(tc.rows, tc.cols, tc.k)
		if (err == nil) != tc.ok || Fits(tc.rows, tc.cols, tc.k) != tc.ok {
			t.Errorf("NewBoard(%d, %d, %d): error %v, want ok %v", tc.rows, tc.cols, tc.k, err, tc.ok)
		}
	}
}
