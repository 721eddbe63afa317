package solver

import (
	"math"
	"math/bits"
)

// Parity strategies (Allis' claimeven, generalised): static bounds on the
// sign of a position's score, proved by a strategy one side can follow to
// the end of the game.
//
// The cells of a column alternate between the two row sets of geom:
// evenRows, the rows whose parity is the number of rows' (rows 0, 2, 4 of
// six, counted from the bottom), and oddRows. A column with an even number
// of empty cells has its next cell in evenRows; with an odd number, in
// oddRows. Call those the even and the odd columns; X is the set of the odd
// columns' next cells, S the side to move and F the other.
//
//	row 5  . . . . . . .   oddRows
//	row 4  . . . . . . .   evenRows
//	row 3  . . o . . . .   oddRows
//	row 2  . . x . . . .   evenRows      column 2: 2 empty, even
//	row 1  . . o . . . .   oddRows       column 5: 5 empty, odd: its
//	row 0  . x x o x o .   evenRows      next cell (row 1) is in X
//
// Follow-up: while every column is even and S is to move, F can answer
// each move of S on top of it, in the same column; S then gets only
// evenRows cells and F only oddRows cells, to the end of the game. Odd
// columns are taken in pairs: when S plays the next cell of one, F plays
// the next cell of its partner, and both columns are even again. So:
//
//  1. An even number of odd columns (S to move): S gets at most the
//     evenRows cells and X. If no k in a row fits in S's stones and those
//     cells, S cannot win: score <= 0. If then k in a row fits in F's
//     stones and the oddRows cells outside X, F wins: score <= -1.
//  2. An odd number of odd columns: S plays the next cell x of one and is
//     then the follower of case 1, with the other odd columns in pairs. If
//     no k in a row fits in F's stones, the evenRows cells and X less x,
//     F cannot win: score >= 0; if then k in a row fits in S's stones and
//     the oddRows cells outside X less x, S wins: score >= 1. Every x of X
//     is tried.
//  3. An odd number of odd columns, and F has a threat (a cell completing
//     k in a row with its stones) in evenRows in odd column c, at t the
//     lowest: F follows up in every column, c included, and pairs the
//     other odd columns. In c, S plays first and F gets the evenRows cells,
//     so S never passes t; S gets at most the evenRows cells and X outside
//     c and the oddRows cells of c below t. When every other column is
//     full, S must play in c, and F gets t. If no k in a row fits in S's
//     stones and those cells, F wins: score <= -1. (Allis' White with an
//     odd threat, on 6x7.) F plays t at the latest once every cell
//     outside c and below t is filled, which bounds its score from below
//     and S's from above (parityHi: at most -1, often less).
//
// A win proved this way comes at the latest with the board's last cell, so
// it scores at least 1 in the package's scale: the bounds hold for exact
// scores as they do for signs. On 6x7, case 1 with no odd column is
// Allis' claimeven for the second player, case 3 his rule for the first.
// They cut the deep null-window searches where the outcome is decided by
// zugzwang at the end of the board: with the static cutoff of negamax
// (a child they prove lost cuts before any child is searched), the empty
// board weak 517 M -> 133 M nodes, exact 738 M -> 245 M (see
// docs/PERFORMANCE.md).

// noLo and noHi: parityBounds found no bound on that side.
const (
	noLo = math.MinInt32
	noHi = math.MaxInt32
)

// parityBounds returns the bounds the parity strategies prove for the
// position where the side to move has the stones cur (opp for the other
// side, every stone in mask), tops holds the next cell of every open column
// and oppWin the empty cells where opp would complete k in a row, within
// the window (alpha, beta): lo is 0 or 1 (score >= lo) or noLo; hi is 0,
// -1 or lower (score <= hi) or noHi. The bounds that cannot cut the
// window are not computed (see parityHi and parityLo).
func (g *geom) parityBounds(cur, opp, mask, tops, oppWin uint64, alpha, beta int) (lo, hi int) {
	return g.parityLo(cur, opp, mask, tops, beta), g.parityHi(cur, opp, mask, tops, oppWin, alpha)
}

// parityHi is parityBounds' upper bound: cases 1 and 3, case 1 only when
// alpha >= -1 (its bounds, 0 and -1, cannot cut below). With alpha >= -1
// it depends on the position alone.
func (g *geom) parityHi(cur, opp, mask, tops, oppWin uint64, alpha int) int {
	hi := noHi
	x := tops & g.oddRows
	even := g.evenRows &^ mask
	odd := g.oddRows &^ mask
	if bits.OnesCount64(x)&1 == 0 {
		if alpha >= -1 && !g.aligned(cur|even|x) {
			hi = 0
			if g.aligned(opp | odd&^x) {
				hi = -1
			}
		}
		return hi
	}
	for c := x; c != 0; c &= c - 1 {
		col := g.colMask[g.colOf[bits.TrailingZeros64(c)]&(maxCols-1)]
		ts := oppWin & col & g.evenRows
		if ts == 0 {
			continue
		}
		t := ts & -ts
		below := col &^ mask & (t - 1)
		if !g.aligned(cur | (even|x)&^col | odd&below) {
			// F plays t at the latest once every other cell
			// outside c and below t is filled.
			late := bits.OnesCount64(mask | g.board&^col | below)
			hi = min(hi, -g.scoreAt(late))
		}
	}
	return hi
}

// parityLo is parityBounds' lower bound: case 2, only when beta <= 1.
func (g *geom) parityLo(cur, opp, mask, tops uint64, beta int) int {
	x := tops & g.oddRows
	if beta > 1 || bits.OnesCount64(x)&1 == 0 {
		return noLo
	}
	even := g.evenRows &^ mask
	odd := g.oddRows &^ mask
	if g.aligned(opp | even) {
		return noLo // F wins against every first move x
	}
	lo := noLo
	if x&(x-1) == 0 {
		// One odd column: S plays x, and no pair is left.
		lo = 0
		if g.aligned(cur | odd) {
			lo = 1
		}
		return lo
	}
	// sure: F cannot win whichever x S plays first.
	sure := !g.aligned(opp | even | x)
	for c := x; c != 0 && lo < 1; c &= c - 1 {
		rest := x &^ (c & -c)
		if sure || !g.aligned(opp|even|rest) {
			lo = 0
			if g.aligned(cur | odd&^rest) {
				lo = 1
			}
		}
	}
	return lo
}
