package pattern

// Pattern4 is a cell's threat class for one colour: what a stone there
// makes over the four directions together, weakest first. Forbidden marks
// a cell black may not take under renju (as far as the patterns tell: an
// overline, two fours, two open threes); the root checks every move with
// the engine's exact judge.
type Pattern4 uint8

// The threat classes (after Rapfi's Pattern4), weakest first.
const (
	None        Pattern4 = iota
	Forbidden            // renju: black may not play here
	Flex2                // an open two
	Block3               // a blocked three
	Flex2x2              // two open twos
	Block3Plus           // a blocked three and another three or two
	Flex3                // an open three
	Flex3Plus            // an open three and a blocked three or open two
	Flex3x2              // two open threes
	Block4               // a four
	Block4Plus           // a four and a blocked three or open two
	Block4Flex3          // a four and an open three
	Flex4                // an open four or two fours: wins next move
	Five                 // five in a row
	NumPattern4
)

// Combine returns the class of the four line patterns of one colour;
// renjuBlack applies black's fouls.
func Combine(p [4]Pattern, renjuBlack bool) Pattern4 {
	var n [NumPatterns]int
	for _, x := range p {
		n[x]++
	}
	if n[F5] > 0 {
		return Five
	}
	if renjuBlack && (n[Overline] > 0 || n[F4]+n[B4] >= 2 || n[F3] >= 2) {
		return Forbidden
	}
	switch {
	case n[F4] > 0 || n[B4] >= 2:
		return Flex4
	case n[B4] > 0 && n[F3] > 0:
		return Block4Flex3
	case n[B4] > 0 && n[B3]+n[F2] > 0:
		return Block4Plus
	case n[B4] > 0:
		return Block4
	case n[F3] >= 2:
		return Flex3x2
	case n[F3] > 0 && n[B3]+n[F2] > 0:
		return Flex3Plus
	case n[F3] > 0:
		return Flex3
	case n[B3] >= 2 || n[B3] > 0 && n[F2] > 0:
		return Block3Plus
	case n[F2] >= 2:
		return Flex2x2
	case n[B3] > 0:
		return Block3
	case n[F2] > 0:
		return Flex2
	}
	return None
}

// LineScore is the evaluation's value of one line pattern of a cell.
var LineScore = [NumPatterns]int32{Dead: 0, Overline: 0, B1: 1, F1: 3, B2: 6, F2: 16, B3: 22, F3: 60, B4: 64, F4: 300, F5: 2000}

// ClassScore is the bonus of a cell's threat class, on top of its lines.
var ClassScore = [NumPattern4]int32{
	Flex2x2: 20, Block3Plus: 20, Flex3Plus: 80, Flex3x2: 300,
	Block4Plus: 100, Block4Flex3: 600, Flex4: 1500, Five: 6000,
}

// Classes is a table of the class and score of every four-pattern
// combination, for one colour: Combine and the scores precomputed, indexed
// by Index.
type Classes struct {
	class []Pattern4
	score []int32
}

// Index packs four line patterns into a Classes index.
func Index(p0, p1, p2, p3 Pattern) int {
	return ((int(p0)*int(NumPatterns)+int(p1))*int(NumPatterns)+int(p2))*int(NumPatterns) + int(p3)
}

// NewClasses builds the table (renjuBlack: black under renju).
func NewClasses(renjuBlack bool) *Classes {
	n := int(NumPatterns)
	t := &Classes{class: make([]Pattern4, n*n*n*n), score: make([]int32, n*n*n*n)}
	for i := range t.class {
		p := [4]Pattern{Pattern(i / (n * n * n)), Pattern(i / (n * n) % n), Pattern(i / n % n), Pattern(i % n)}
		c := Combine(p, renjuBlack)
		var s int32
		for _, x := range p {
			s += LineScore[x]
		}
		s += ClassScore[c]
		if c == Forbidden {
			s = 0
		}
		t.class[i], t.score[i] = c, s
	}
	return t
}

// At returns the class and score of the combination at index i.
func (t *Classes) At(i int) (Pattern4, int32) { return t.class[i], t.score[i] }
