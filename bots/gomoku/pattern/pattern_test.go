package pattern

import (
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// keyOf packs an 11-cell line written as text (x black, o white, # off
// the board, . empty; the centre, index 5, is the cell judged) into a key.
func keyOf(t *testing.T, line string) uint32 {
	t.Helper()
	if len(line) != 2*Half+1 {
		t.Fatalf("line %q: want %d cells", line, 2*Half+1)
	}
	var k uint32
	for i, ch := range line {
		off := i - Half
		if off == 0 {
			continue
		}
		var v uint32
		switch ch {
		case 'x':
			v = 1
		case 'o':
			v = 2
		case '#':
			v = Wall
		}
		k |= v << (2 * KeySlot(off))
	}
	return k
}

func TestLinePatterns(t *testing.T) {
	tests := []struct {
		line   string
		rule   engine.Line
		colour engine.Color
		want   Pattern
	}{
		{"...xx.xx...", engine.Freestyle, engine.X, F5},
		{"..xxx......", engine.Freestyle, engine.X, F4},
		{"o.xxx......", engine.Freestyle, engine.X, F4},
		{".oxxx......", engine.Freestyle, engine.X, B4},
		{"...x..x....", engine.Freestyle, engine.X, F3},
		{"....o.xx...", engine.Freestyle, engine.X, B3},
		{"....#.xx...", engine.Freestyle, engine.X, B3},
		{"....o.xxo..", engine.Freestyle, engine.X, Dead},
		{"....x.x....", engine.Freestyle, engine.X, F3},
		{"....x......", engine.Freestyle, engine.X, F2},
		{"...........", engine.Freestyle, engine.X, F1},
		{"##.........", engine.Freestyle, engine.O, F1},
		{"...oo.oo...", engine.Freestyle, engine.O, F5},
		{".xxxx.x....", engine.Freestyle, engine.X, F5},
		{".xxxx.x....", engine.Exact, engine.X, Overline},
		{".xxxx.x....", engine.Renju, engine.X, Overline},
		{".oooo.o....", engine.Renju, engine.O, F5},
		{"x.xxx......", engine.Freestyle, engine.X, F4},
		{"x.xxx......", engine.Exact, engine.X, B4},
		{"x.xxx......", engine.Renju, engine.X, B4},
		{"o.ooo......", engine.Renju, engine.O, F4},
	}
	for _, tc := range tests {
		got := For(tc.rule).Lookup(keyOf(t, tc.line), tc.colour)
		if got != tc.want {
			t.Errorf("%s %v %q: %v, want %v", tc.rule, tc.colour, tc.line, got, tc.want)
		}
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		p          [4]Pattern
		renjuBlack bool
		want       Pattern4
	}{
		{[4]Pattern{F5, Overline, B4, B4}, true, Five},
		{[4]Pattern{B4, B4, Dead, Dead}, false, Flex4},
		{[4]Pattern{B4, B4, Dead, Dead}, true, Forbidden},
		{[4]Pattern{F4, Dead, Dead, Dead}, true, Flex4},
		{[4]Pattern{B4, F3, Dead, Dead}, true, Block4Flex3},
		{[4]Pattern{F3, F3, Dead, Dead}, false, Flex3x2},
		{[4]Pattern{F3, F3, Dead, Dead}, true, Forbidden},
		{[4]Pattern{Overline, F2, Dead, Dead}, true, Forbidden},
		{[4]Pattern{Overline, F2, Dead, Dead}, false, Flex2},
		{[4]Pattern{F3, B3, Dead, Dead}, false, Flex3Plus},
		{[4]Pattern{B3, F2, B1, F1}, false, Block3Plus},
		{[4]Pattern{F2, F2, Dead, Dead}, false, Flex2x2},
		{[4]Pattern{B1, F1, Dead, Dead}, false, None},
	}
	for _, tc := range tests {
		if got := Combine(tc.p, tc.renjuBlack); got != tc.want {
			t.Errorf("Combine(%v, renju black %v) = %v, want %v", tc.p, tc.renjuBlack, got, tc.want)
		}
		c, _ := NewClasses(tc.renjuBlack).At(Index(tc.p[0], tc.p[1], tc.p[2], tc.p[3]))
		if c != tc.want {
			t.Errorf("Classes(%v) = %v, want %v", tc.p, c, tc.want)
		}
	}
}
