package engine

// Result is the state of a game: still open, won by a side, or drawn.
type Result int8

const (
	// Open means the game goes on.
	Open Result = iota
	// XWins means the first player won.
	XWins
	// OWins means the second player won.
	OWins
	// Draw means the board filled with no winning line, or (renju) black
	// is to move and every empty cell is forbidden to it (Position.Stuck).
	Draw
)

// WinFor returns the result in which c wins.
func WinFor(c Color) Result {
	if c == X {
		return XWins
	}
	return OWins
}

// Winner returns the winning colour, or Empty for an open or drawn game.
func (r Result) Winner() Color {
	switch r {
	case XWins:
		return X
	case OWins:
		return O
	}
	return Empty
}

// String returns the score as GTP's final_score writes it: "X+", "O+", "0"
// for a draw, and "" while the game is open.
func (r Result) String() string {
	switch r {
	case XWins:
		return "X+"
	case OWins:
		return "O+"
	case Draw:
		return "0"
	}
	return ""
}
