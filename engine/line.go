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

// lineDef is a line rule's entry in the registry: its names and its
// behaviour, asked through Line's methods.
type lineDef struct {
	name  string // as in rules strings
	about string // in words
	// gravity: whether it is defined under gravity (Game.Gravity) too.
	gravity bool
	k       int // the only K it is defined for; 0: any
	// exact: the colours for which only a line of exactly K wins (an
	// overline wins nothing).
	exact colors
	// fouls: the colours some of whose moves can be forbidden.
	fouls colors
	// foul judges the side to move's move on the empty cell of p (asked
	// only for the colours in fouls).
	foul func(p *Position, cell int) Foul
}

// colors is a set of colours, bit 1<<c for colour c.
type colors uint8

const (
	noColor   colors = 0
	blackOnly colors = 1 << X
	bothSides colors = 1<<X | 1<<O
)

// has tells whether c is in the set.
func (s colors) has(c Color) bool { return s&(1<<c) != 0 }

// lines is the registry of line rules, indexed by Line: each rule's name
// and behaviour, defined once. A new line rule is a Line constant and an
// entry here.
var lines = [lineCount]lineDef{
	Freestyle: {name: "freestyle", about: "a line of K or more wins", gravity: true, exact: noColor},
	Exact:     {name: "exact", about: "exactly K in a row wins, an overline does not", gravity: true, exact: bothSides},
	Renju: {name: "renju", about: "renju: black wins with exactly five and may not play a double three, a double four or an overline; white wins with five or more",
		k: 5, exact: blackOnly, fouls: blackOnly, foul: (*Position).foul},
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

// admitsGame tells whether the line rule is defined for the family g.
func (d lineDef) admitsGame(g *Game) bool { return d.gravity || !g.Gravity() }

// admits tells whether the line rule is defined for r's kind and K.
func (l Line) admits(r Rules) error {
	if l >= lineCount {
		return fmt.Errorf("unknown line rule %d: accepted are freestyle, exact and renju", l)
	}
	d := lines[l]
	if !d.admitsGame(r.Game()) {
		var names []string
		for k := Kind(1); k < kindEnd; k++ {
			if d.admitsGame(&games[k]) {
				names = append(names, games[k].name)
			}
		}
		return fmt.Errorf("line rule %s is for %s only, not %s", l, strings.Join(names, " and "), r.Kind)
	}
	if d.k != 0 && r.K != d.k {
		return fmt.Errorf("line rule %s needs k = %d, not %d", l, d.k, r.K)
	}
	return nil
}

// ExactFor tells whether only a line of exactly K wins for c under l (an
// overline wins nothing): under exact for both sides, under renju for black.
func (l Line) ExactFor(c Color) bool { return lines[l].exact.has(c) }

// Wins tells whether a line of n stones of c wins under l where K stones
// make a line: K or more, or exactly K where l wants exactly K for c.
func (l Line) Wins(c Color, n, k int) bool {
	return n == k || n > k && !l.ExactFor(c)
}

// Forbids tells whether some moves of c can be forbidden under l (black's
// in renju): only then does Judge find fouls.
func (l Line) Forbids(c Color) bool { return lines[l].fouls.has(c) }

// Judge tells whether the side to move in p may not play the empty cell
// under l, and why; NoFoul where l forbids none of its moves. The position
// is the same afterwards (see Position.Foul).
func (l Line) Judge(p *Position, cell int) Foul {
	if !l.Forbids(p.ToMove()) {
		return NoFoul
	}
	return lines[l].foul(p, cell)
}

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
