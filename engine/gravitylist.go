package engine

// A Connect-X move list replayed from the empty board (kinrow solve's
// host and every solving bot do it once per position) is first checked
// on a bitboard, as Pascal Pons' solver plays a sequence: then the stones
// are placed without the line walk after each move. The bitboard serves
// boards whose columns, each with a spare bit on top, fit 64 bits:
//
//	  .  .  .  .  .  .  .     row R: the spare bit of each column
//	  5 12 19 26 33 40 47     (R = 6, C = 7: bit = col*(R+1) + row)
//	  4 11 18 25 32 39 46
//	  3 10 17 24 31 38 45
//	  2  9 16 23 30 37 44
//	  1  8 15 22 29 36 43
//	  0  7 14 21 28 35 42     row 0, the bottom
//
// A line of K of one side's stones in direction s (1 vertical, R+1
// horizontal, R diagonal, R+2 anti-diagonal) is a bit b with b, b+s, …,
// b+(K-1)s all set; the spare bits, never set, stop every line at a
// column's top and bottom.

// gravityListFits tells whether r's move lists are checked on the
// bitboard: Connect-X, any line of K or more wins, (R+1)*C <= 64.
func gravityListFits(r Rules) bool {
	return r.Gravity() && r.Line == Freestyle && (r.Rows+1)*r.Cols <= 64
}

// hasLine tells whether stones hold a line of k in one of the four
// directions of a board of rows rows (see the drawing above).
func hasLine(stones uint64, rows, k int) bool {
	for _, s := range [4]int{1, rows + 1, rows, rows + 2} {
		x := stones
		for i := 1; i < k && x != 0; i++ {
			x &= stones >> (i * s)
		}
		if x != 0 {
			return true
		}
	}
	return false
}

// playListFast plays moves from the empty board of a rules that
// gravityListFits, when they are all legal: it drops them on the
// bitboard, checking only for full columns, and then asks once whether a
// line stood before the last move (the game ended earlier: a later move
// is illegal) and whether the last move made one. Then it places the
// stones and sets the result. It returns false, the position untouched,
// for a list with an illegal move: the caller replays it move by move to
// say which and why.
func (p *Position) playListFast(moves []Move) bool {
	r := p.rules
	rows, cols, k := r.Rows, r.Cols, r.K
	h := rows + 1
	var cur, mask, last uint64 // the stones of the side to move; all stones; the last stone
	for _, m := range moves {
		if m < 0 || int(m) >= cols {
			return false
		}
		col := int(m) * h
		if mask&(1<<(col+rows-1)) != 0 {
			return false // the column is full
		}
		cur ^= mask // now the opponent's stones
		last = (mask + 1<<col) &^ mask
		mask |= last
	}
	result := Open
	if n := len(moves); n > 0 {
		mover := cur ^ mask // the stones of the side that moved last
		if n > 2*k-2 && (hasLine(cur, rows, k) || hasLine(mover&^last, rows, k)) {
			return false // a move after the end of the game
		}
		switch {
		case (n+1)/2 >= k && hasLine(mover, rows, k):
			result = WinFor(X + Color((n-1)%2))
		case n == rows*cols:
			result = Draw
		}
	}
	for _, m := range moves {
		c := p.ToMove()
		cell := p.heights[m]*cols + int(m)
		p.heights[m]++
		p.cells[cell] = c
		p.history = append(p.history, int32(cell))
		p.hash ^= ZobristKey(cell, c) ^ SideKey
	}
	p.result = result
	return true
}
