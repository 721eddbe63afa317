package engine

// Renju's forbidden moves, as the Renju International Federation's rules
// define them (black only; K = 5):
//
//   - a five is exactly five black stones in a row; it wins even when the
//     move also makes one of the shapes below;
//   - an overline (six or more in a row) is forbidden;
//   - a four is a line that one more stone turns into a five; a straight
//     four has two such points at both ends of four stones in a row
//     (.XXXX.), and counts as one four; two fours at once, in two lines or
//     in one (X.XXX.X), are a double four, forbidden;
//   - a three is a line that one more stone turns into a straight four, and
//     it is a three only if that stone is itself not forbidden (judged
//     recursively, with the move being judged on the board); two threes at
//     once are a double three, forbidden. A line holding a four does not
//     also count as a three.
//
// The judgement places stones on the position's cells and takes them back;
// it allocates nothing and recurses only along the candidate points that
// would make straight fours.

// wall is what look returns off the board.
const wall Color = 2

// look returns the content of (r, c), or wall off the board.
func (p *Position) look(r, c int) Color {
	if r < 0 || r >= p.rules.Rows || c < 0 || c >= p.rules.Cols {
		return wall
	}
	return p.cells[r*p.rules.Cols+c]
}

// foul judges black's move on the empty cell.
func (p *Position) foul(cell int) Foul {
	p.cells[cell] = X
	f := p.judge(cell/p.rules.Cols, cell%p.rules.Cols)
	p.cells[cell] = Empty
	return f
}

// reach walks from (r, c) by (dr, dc) over black stones: it returns how
// many it passed and the first cell that is not black (its content and place).
func (p *Position) reach(r, c, dr, dc int) (n int, end Color, er, ec int) {
	r, c = r+dr, c+dc
	for {
		v := p.look(r, c)
		if v != X {
			return n, v, r, c
		}
		n++
		r, c = r+dr, c+dc
	}
}

// judge returns the foul of the black stone just placed on (r, c).
func (p *Position) judge(r, c int) Foul {
	five, over := false, false
	for d := 0; d < 4; d++ {
		dr, dc := Direction(d)
		a, _, _, _ := p.reach(r, c, dr, dc)
		b, _, _, _ := p.reach(r, c, -dr, -dc)
		switch n := 1 + a + b; {
		case n == 5:
			five = true
		case n > 5:
			over = true
		}
	}
	if five {
		return NoFoul
	}
	if over {
		return Overline
	}
	// A four through (r, c) needs three more black stones within four
	// cells of it in its line, a three two more within three: count them
	// first, so that most cells are judged without placing a stone.
	var near [4]int
	lines, most := 0, 0
	for d := 0; d < 4; d++ {
		dr, dc := Direction(d)
		n := 0
		for i := 1; i <= 4; i++ {
			if p.look(r+i*dr, c+i*dc) == X {
				n++
			}
			if p.look(r-i*dr, c-i*dc) == X {
				n++
			}
		}
		near[d] = n
		most = max(most, n)
		if n >= 2 {
			lines++
		}
	}
	if lines < 2 && most < 4 {
		// Two fours or two threes need two such lines, or one line of
		// at least four more stones (x.xxx.x).
		return NoFoul
	}
	fours := 0
	var four [4]bool
	for d := 0; d < 4; d++ {
		if near[d] < 3 {
			continue
		}
		n := p.fours(r, c, d)
		fours += n
		four[d] = n > 0
	}
	if fours >= 2 {
		return DoubleFour
	}
	threes := 0
	for d := 0; d < 4; d++ {
		if !four[d] && near[d] >= 2 && p.three(r, c, d) {
			if threes++; threes >= 2 {
				return DoubleThree
			}
		}
	}
	return NoFoul
}

// fivePoint tells whether the empty cell (er, ec), at the end of a run of n
// black stones (going on by (dr, dc) away from it), makes exactly five.
func (p *Position) fivePoint(n int, end Color, er, ec, dr, dc int) bool {
	if end != Empty {
		return false
	}
	m, _, _, _ := p.reach(er, ec, dr, dc)
	return n+1+m == 5
}

// fours counts the fours through the black stone on (r, c) in direction d:
// 0, 1 (one four, or a straight four) or 2 (two fours in one line).
func (p *Position) fours(r, c, d int) int {
	dr, dc := Direction(d)
	a, ea, ar, ac := p.reach(r, c, dr, dc)
	b, eb, br, bc := p.reach(r, c, -dr, -dc)
	n := 1 + a + b
	fa := p.fivePoint(n, ea, ar, ac, dr, dc)
	fb := p.fivePoint(n, eb, br, bc, -dr, -dc)
	switch {
	case fa && fb && n == 4:
		return 1 // straight four: two points, one four
	case fa && fb:
		return 2
	case fa || fb:
		return 1
	}
	return 0
}

// straightFour tells whether the black stones through (r, c) in direction
// d make a straight four: four in a row, each end empty and making five.
func (p *Position) straightFour(r, c, d int) bool {
	dr, dc := Direction(d)
	a, ea, ar, ac := p.reach(r, c, dr, dc)
	b, eb, br, bc := p.reach(r, c, -dr, -dc)
	n := 1 + a + b
	return n == 4 && p.fivePoint(n, ea, ar, ac, dr, dc) && p.fivePoint(n, eb, br, bc, -dr, -dc)
}

// three tells whether the black stone on (r, c) makes a three in direction
// d: one more black stone, on the first free cell on either side, makes a
// straight four through (r, c), and that stone is not itself forbidden.
func (p *Position) three(r, c, d int) bool {
	dr, dc := Direction(d)
	for s := 1; s >= -1; s -= 2 {
		_, e, er, ec := p.reach(r, c, s*dr, s*dc)
		if e != Empty {
			continue
		}
		cell := er*p.rules.Cols + ec
		p.cells[cell] = X
		ok := p.straightFour(r, c, d)
		p.cells[cell] = Empty
		if ok && p.foul(cell) == NoFoul {
			return true
		}
	}
	return false
}
