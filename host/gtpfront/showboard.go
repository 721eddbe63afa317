package gtpfront

import (
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
)

// markedDiagram is the position's diagram (engine.Position.Diagram) with
// the last move in parentheses, "(x)", and the stones of the winning line
// in capitals, "X": the marks take the spaces between cells, so the
// columns stay where they are.
func markedDiagram(p *engine.Position) string {
	lines := strings.Split(p.Diagram(), "\n")
	if p.Ply() == 0 {
		return strings.Join(lines, "\n")
	}
	r := p.Rules()
	width := 1
	for c := 0; c < r.Cols; c++ {
		width = max(width, len(r.ColumnLabel(c)))
	}
	lead := 0
	if !r.Gravity() { // rows are labelled where moves are cells
		lead = len(strconv.Itoa(r.Rows))
	}
	// at is the byte offset of cell's stone in its line, and that line.
	at := func(cell int) (line, col int) {
		row, c := cell/r.Cols, cell%r.Cols
		return 1 + (r.Rows - 1 - row), lead + c*(width+1) + width
	}
	set := func(line, col int, b byte) {
		if line < 0 || line >= len(lines) {
			return
		}
		s := []byte(lines[line])
		for len(s) <= col {
			s = append(s, ' ')
		}
		s[col] = b
		lines[line] = string(s)
	}
	for _, cell := range p.WinningLine() {
		line, col := at(cell)
		if line < len(lines) && col < len(lines[line]) {
			set(line, col, strings.ToUpper(lines[line][col : col+1])[0])
		}
	}
	line, col := at(p.LastCell())
	set(line, col-1, '(')
	set(line, col+1, ')')
	return strings.Join(lines, "\n")
}
