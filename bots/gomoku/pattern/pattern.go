package pattern

import (
	"sync"

	"github.com/kinrow/kinrow/engine"
)

// Half is how many cells each side of a cell a key holds.
const Half = 5

// KeyBits is the width of a line key: two bits per neighbour.
const KeyBits = 4 * Half

// Wall is the two-bit code of a cell off the board.
const Wall = 3

// Pattern is what a stone makes on one line, weakest first.
type Pattern uint8

// The line patterns, in increasing strength.
const (
	Dead     Pattern = iota // no five can pass through the cell
	Overline                // six or more where only exactly five wins
	B1                      // one stone, one side blocked
	F1                      // one stone, open
	B2                      // two, one move from a blocked three
	F2                      // two, one move from an open three
	B3                      // three: one move from a blocked four
	F3                      // open three: one move from an open four
	B4                      // four: one cell makes five
	F4                      // open four: two cells make five
	F5                      // five
	NumPatterns
)

var patternNames = [...]string{"dead", "overline", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5"}

// String names the pattern.
func (p Pattern) String() string {
	if int(p) < len(patternNames) {
		return patternNames[p]
	}
	return "?"
}

// Table maps a line key to the patterns of black (low nibble) and white
// (high nibble) on the key's centre cell.
type Table struct {
	pats []uint8
}

// Lookup returns the pattern a stone of colour c (engine.X or engine.O) on
// the key's centre makes along its line.
func (t *Table) Lookup(key uint32, c engine.Color) Pattern {
	return Pattern(t.pats[key] >> (4 * uint(c)) & 15)
}

// Both returns the packed patterns of black (low nibble) and white (high).
func (t *Table) Both(key uint32) uint8 { return t.pats[key] }

var (
	tableOnce [3]sync.Once
	tables    [3]*Table
)

// For returns the table of a line rule, built on first use and shared.
// Under freestyle a five or more wins for both colours; under exact only
// exactly five; under renju exactly five for black, five or more for white.
func For(l engine.Line) *Table {
	i := int(l)
	if i < 0 || i >= len(tables) {
		i = 0
	}
	tableOnce[i].Do(func() { tables[i] = build(l) })
	return tables[i]
}

// lineLen is the number of cells of a judged line; center its middle.
const (
	lineLen = 2*Half + 1
	center  = Half
)

// judge computes patterns of 11-cell lines, memoised.
type judge struct {
	exact bool
	memo  []uint8 // index own | block<<lineLen; 0xff: not yet known
}

func newJudge(exact bool) *judge {
	m := make([]uint8, 1<<(2*lineLen))
	for i := range m {
		m[i] = 0xff
	}
	return &judge{exact: exact, memo: m}
}

// five reports a five through the centre (exactly five when exact).
func (j *judge) five(own uint32) bool {
	for a := center - 4; a <= center; a++ {
		w := uint32(0x1f) << a
		if own&w != w {
			continue
		}
		if !j.exact {
			return true
		}
		if a > 0 && own&(1<<(a-1)) != 0 {
			continue
		}
		if a+5 < lineLen && own&(1<<(a+5)) != 0 {
			continue
		}
		return true
	}
	return false
}

// overline reports six or more in a row through the centre.
func overline(own uint32) bool {
	for b := center - 5; b <= center; b++ {
		w := uint32(0x3f) << b
		if own&w == w {
			return true
		}
	}
	return false
}

// demote is the pattern one stone short of p.
var demote = [NumPatterns]Pattern{F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1}

// eval returns the pattern of a line whose centre holds an own stone.
func (j *judge) eval(own, block uint32) Pattern {
	idx := own | block<<lineLen
	if v := j.memo[idx]; v != 0xff {
		return Pattern(v)
	}
	p := j.compute(own, block)
	j.memo[idx] = uint8(p)
	return p
}

func (j *judge) compute(own, block uint32) Pattern {
	if j.five(own) {
		return F5
	}
	if j.exact && overline(own) {
		return Overline
	}
	const all = 1<<lineLen - 1
	empty := all &^ (own | block)
	fives := 0
	for e := 0; e < lineLen; e++ {
		if empty&(1<<e) != 0 && j.five(own|1<<e) {
			fives++
		}
	}
	switch {
	case fives >= 2:
		return F4
	case fives == 1:
		return B4
	}
	best := Dead
	for e := 0; e < lineLen; e++ {
		if empty&(1<<e) == 0 {
			continue
		}
		if d := demote[j.eval(own|1<<e, block)]; d > best {
			best = d
		}
	}
	return best
}

// build fills the table of a line rule.
func build(l engine.Line) *Table {
	judges := [2]*judge{newJudge(l.ExactFor(engine.X)), newJudge(l.ExactFor(engine.O))}
	if judges[0].exact == judges[1].exact {
		judges[1] = judges[0]
	}
	t := &Table{pats: make([]uint8, 1<<KeyBits)}
	for key := uint32(0); key < 1<<KeyBits; key++ {
		var packed uint8
		for c := 0; c < 2; c++ {
			own, block := uint32(1)<<center, uint32(0)
			for n := 0; n < 2*Half; n++ {
				pos := n
				if n >= Half {
					pos = n + 1
				}
				switch v := key >> (2 * n) & 3; {
				case v == 0:
				case v == uint32(1)<<c:
					own |= 1 << pos
				default:
					block |= 1 << pos
				}
			}
			packed |= uint8(judges[c].eval(own, block)) << (4 * c)
		}
		t.pats[key] = packed
	}
	return t
}

// KeySlot is the position (0..2*Half-1) in a key of the neighbour at
// offset off (-Half..-1, 1..Half) from the centre.
func KeySlot(off int) int {
	if off < 0 {
		return off + Half
	}
	return off + Half - 1
}
