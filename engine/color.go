package engine

import (
	"fmt"
	"strings"
)

// Color is a side, or the content of a cell.
type Color int8

const (
	// Empty marks a free cell.
	Empty Color = -1
	// X moves first (GTP's black).
	X Color = 0
	// O moves second (GTP's white).
	O Color = 1
)

// Other returns the opponent of c (X for O, O for X).
func (c Color) Other() Color { return c ^ 1 }

// String returns "x", "o" or "." for an empty cell.
func (c Color) String() string {
	switch c {
	case X:
		return "x"
	case O:
		return "o"
	}
	return "."
}

// ParseColor reads a colour: x or b or black for the first player, o or w or
// white for the second, case-insensitive.
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(s) {
	case "x", "b", "black":
		return X, nil
	case "o", "w", "white":
		return O, nil
	}
	return Empty, fmt.Errorf("invalid color %q: accepted are x, o, b, w, black, white", s)
}
