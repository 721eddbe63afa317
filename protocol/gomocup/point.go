package gomocup

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
)

// MaxCoordinate bounds every number the parsers accept as a coordinate or a
// board side; larger numbers are refused as malformed.
const MaxCoordinate = 1 << 20

// Point is a Gomocup coordinate: X the column from the left, Y the row from
// the top, both from 0.
type Point struct {
	X, Y int
}

// String prints p as the protocol does: "X,Y".
func (p Point) String() string {
	return strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y)
}

// PointSyntax tells what a coordinate looks like; error messages quote it.
const PointSyntax = "X,Y: two numbers from 0 separated by a comma, X the column from the left, Y the row from the top"

// ParsePoint reads "X,Y" (spaces around the numbers are allowed).
func ParsePoint(s string) (Point, error) {
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return Point{}, fmt.Errorf("coordinate %q has no comma: want %s", s, PointSyntax)
	}
	x, err := parseNumber(xs)
	if err != nil {
		return Point{}, fmt.Errorf("coordinate %q: X %w: want %s", s, err, PointSyntax)
	}
	y, err := parseNumber(ys)
	if err != nil {
		return Point{}, fmt.Errorf("coordinate %q: Y %w: want %s", s, err, PointSyntax)
	}
	return Point{x, y}, nil
}

// parseNumber reads a decimal number from 0 to MaxCoordinate, allowing
// surrounding spaces and tabs.
func parseNumber(s string) (int, error) {
	t := strings.Trim(s, " \t")
	if t == "" {
		return 0, errors.New("is missing")
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, fmt.Errorf("%q is not a number from 0", t)
		}
	}
	if len(t) > 8 {
		return 0, fmt.Errorf("%q is larger than %d", t, MaxCoordinate)
	}
	v, _ := strconv.Atoi(t)
	if v > MaxCoordinate {
		return 0, fmt.Errorf("%q is larger than %d", t, MaxCoordinate)
	}
	return v, nil
}

// FreestyleRules returns the kinrow rules of a freestyle Gomocup board
// (rule 0: five or more in a row wins) width columns wide and height rows
// high: mnk:{height}x{width}x5. It fails, naming the limit, for a board
// kinrow does not play (sides from 5 to engine.MaxSide).
func FreestyleRules(width, height int) (engine.Rules, error) {
	if width < 5 || height < 5 || width > engine.MaxSide || height > engine.MaxSide {
		return engine.Rules{}, fmt.Errorf("board %dx%d: sides from 5 to %d are supported", width, height, engine.MaxSide)
	}
	r, err := engine.NewRules(engine.MNK, height, width, 5)
	if err != nil {
		return engine.Rules{}, fmt.Errorf("board %dx%d: %w", width, height, err)
	}
	return r, nil
}

// BoardSize returns the Gomocup width (columns) and height (rows) of r.
func BoardSize(r engine.Rules) (width, height int) { return r.Cols, r.Rows }

// ToMove maps a Gomocup point to the m,n,k move of r: column X, row
// Rows-1-Y (kinrow counts rows from the bottom). It fails for a point off
// the board and for Connect-X rules, which Gomocup does not play.
func ToMove(r engine.Rules, p Point) (engine.Move, error) {
	if !r.Game().Holds(engine.FormatGomocup) {
		return engine.NoMove, fmt.Errorf("gomocup coordinates need m,n,k rules, not %s", r)
	}
	if p.X < 0 || p.Y < 0 || p.X >= r.Cols || p.Y >= r.Rows {
		return engine.NoMove, fmt.Errorf("point %s %w: X from 0 to %d, Y from 0 to %d", p, engine.ErrOutOfBoard, r.Cols-1, r.Rows-1)
	}
	return engine.Move((r.Rows-1-p.Y)*r.Cols + p.X), nil
}

// FromMove maps an m,n,k move of r to its Gomocup point; the inverse of
// ToMove.
func FromMove(r engine.Rules, m engine.Move) (Point, error) {
	if !r.Game().Holds(engine.FormatGomocup) {
		return Point{}, fmt.Errorf("gomocup coordinates need m,n,k rules, not %s", r)
	}
	if m < 0 || int(m) >= r.Cells() {
		return Point{}, fmt.Errorf("move %d %w of %s", m, engine.ErrOutOfBoard, r)
	}
	row, col := int(m)/r.Cols, int(m)%r.Cols
	return Point{X: col, Y: r.Rows - 1 - row}, nil
}
