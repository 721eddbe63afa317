package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Line is a rule variant: which lines of stones win and which moves are
// forbidden. Every part of kinrow asks the rules (Position.Result,
// Position.Check, Position.Foul) rather than testing lines itself.
type Line uint8

const (
	// Freestyle: a line of K or more stones wins (kinrow's original game,
	// Gomocup's rule 0).
	Freestyle Line = iota
	// Exact: exactly K stones in a row win; a longer line (an overline)
	// does not (standard gomoku, Gomocup's rule 1).
	Exact
	// Renju: the first player (X, black) wins with exactly five and may
	// not play a double three, a double four or an overline (a five made
	// together with one of these wins); the second player (O, white) wins
	// with five or more (the rules of the Renju International Federation,
	// Gomocup's rule 4). m,n,k with K = 5 only.
	Renju

	lineCount
)

// lineDef is a line rule's entry in the registry.
type lineDef struct {
	name  string // as in rules strings
	about string // in words
	kinds []Kind // the kinds it is defined for
	k     int    // the only K it is defined for; 0: any
}

// lines is the registry of line rules: a fixed table of constants, indexed by Line.
var lines = [lineCount]lineDef{
	Freestyle: {"freestyle", "a line of K or more wins", []Kind{ConnectX, MNK}, 0},
	Exact:     {"exact", "exactly K in a row wins, an overline does not", []Kind{ConnectX, MNK}, 0},
	Renju:     {"renju", "renju: black wins with exactly five and may not play a double three, a double four or an overline; white wins with five or more", []Kind{MNK}, 5},
}

// String returns the line rule's name in rules strings: "freestyle", "exact", "renju".
func (l Line) String() string {
	if l < lineCount {
		return lines[l].name
	}
	return "line(" + strconv.Itoa(int(l)) + ")"
}

// Describe says what wins under the line rule, in words.
func (l Line) Describe() string {
	if l < lineCount {
		return lines[l].about
	}
	return l.String()
}

// ParseLine reads a line rule's name (case-insensitive).
func ParseLine(s string) (Line, error) {
	for l := Freestyle; l < lineCount; l++ {
		if strings.EqualFold(s, lines[l].name) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown line rule %q: accepted are freestyle, exact and renju", s)
}

func (d lineDef) admitsKind(k Kind) bool {
	for _, kk := range d.kinds {
		if kk == k {
			return true
		}
	}
	return false
}

// admits tells whether the line rule is defined for r's kind and K.
func (l Line) admits(r Rules) error {
	if l >= lineCount {
		return fmt.Errorf("unknown line rule %d: accepted are freestyle, exact and renju", l)
	}
	d := lines[l]
	if !d.admitsKind(r.Kind) {
		return fmt.Errorf("line rule %s is for mnk only, not %s", l, r.Kind)
	}
	if d.k != 0 && r.K != d.k {
		return fmt.Errorf("line rule %s needs k = %d, not %d", l, d.k, r.K)
	}
	return nil
}

// ExactFor tells whether only a line of exactly K wins for c under l (an
// overline wins nothing): under exact for both sides, under renju for black.
func (l Line) ExactFor(c Color) bool { return l == Exact || l == Renju && c == X }

// Foul is why a move is forbidden to black in renju; NoFoul for an allowed move.
type Foul uint8

const (
	// NoFoul: the move is allowed.
	NoFoul Foul = iota
	// DoubleThree: the move makes two threes at once.
	DoubleThree
	// DoubleFour: the move makes two fours at once.
	DoubleFour
	// Overline: the move makes six or more in a row.
	Overline
)

// String returns the foul as the rules name it: "double three", "double
// four", "overline", or "" for NoFoul.
func (f Foul) String() string {
	switch f {
	case DoubleThree:
		return "double three"
	case DoubleFour:
		return "double four"
	case Overline:
		return "overline"
	}
	return ""
}
