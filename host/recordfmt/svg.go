package recordfmt

import (
	"bytes"
	"fmt"
	"html"
	"strconv"

	"github.com/kinrow/kinrow/engine"
)

// SVG geometry in user units: the side of a cell and the margin that holds
// the coordinates.
const (
	svgCell   = 32
	svgMargin = 28
)

// svgStyle colours the board; a page may override the variables (the
// viewer's dark scheme does). Stones carry marks as well as colours: a
// cross on x, a ring on o.
const svgStyle = `.kr-bg{fill:var(--kr-board,#e8c47c)}.kr-connectx .kr-bg{fill:var(--kr-cx-board,#2f5fb3)}` +
	`.kr-grid{stroke:var(--kr-grid,#5a4320);stroke-width:1;fill:none}.kr-connectx .kr-grid{stroke:var(--kr-cx-grid,#1d3f7a)}` +
	`.kr-hole{fill:var(--kr-hole,#f4f1ea)}` +
	`.kr-label{font:12px sans-serif;fill:var(--kr-label,#222);text-anchor:middle;dominant-baseline:central}` +
	`.kr-connectx .kr-label{fill:var(--kr-cx-label,#fff)}` +
	`.kr-x circle{fill:var(--kr-x,#c62828);stroke:#000;stroke-width:1}.kr-o circle{fill:var(--kr-o,#f9d71c);stroke:#000;stroke-width:1}` +
	`.kr-mnk .kr-x circle{fill:var(--kr-mnk-x,#111)}.kr-mnk .kr-o circle{fill:var(--kr-mnk-o,#fafafa)}` +
	`.kr-mark{fill:none;stroke-width:2.5;stroke-linecap:round}.kr-x .kr-mark{stroke:var(--kr-x-mark,#fff)}.kr-o .kr-mark{stroke:var(--kr-o-mark,#000)}` +
	`.kr-last{fill:none;stroke:var(--kr-last,#00c853);stroke-width:3}` +
	`.kr-win{stroke:var(--kr-win,#00e5ff);stroke-width:6;stroke-linecap:round;opacity:.6}`

// SVG draws the position after the first ply moves of g (all of them if
// ply is negative or past the end) as a standalone SVG document: every
// stone is a <g class="kr-stone kr-x|kr-o" data-move="…" data-cell="…"
// data-ply="N"> (its move in kinrow's notation, its cell: the vertex, or
// COLUMN/ROW for Connect-X, and the ply that played it from 1), the last
// move is framed (class kr-last), and a won game's line of K is drawn over
// its stones (class kr-win, with data-cells listing them).
func (g *Game) SVG(ply int) ([]byte, error) {
	if ply < 0 || ply > len(g.Moves) {
		ply = len(g.Moves)
	}
	r := g.Rules
	pos := engine.NewPosition(r)
	cellOf := make([]int, 0, ply)
	for i, m := range g.Moves[:ply] {
		if err := pos.Check(m); err != nil {
			return nil, fmt.Errorf("svg: move %d (%s): %w", i+1, r.FormatMove(m), err)
		}
		cellOf = append(cellOf, pos.Cell(m))
		pos.Play(m)
	}
	width, height := 2*svgMargin+r.Cols*svgCell, 2*svgMargin+r.Rows*svgCell
	kind := "kr-" + r.Game().String()
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" class="kr-board %s" data-rules="%s" data-ply="%d" role="img" aria-label="%s after %d plies">`,
		width, height, width, height, kind, r, ply, html.EscapeString(r.String()), ply)
	fmt.Fprintf(&b, "<style>%s</style>", svgStyle)
	fmt.Fprintf(&b, `<rect class="kr-bg" x="0" y="0" width="%d" height="%d" rx="6"/>`, width, height)
	// Grid: one path of every line.
	b.WriteString(`<path class="kr-grid" d="`)
	for c := 0; c <= r.Cols; c++ {
		fmt.Fprintf(&b, "M%d %dV%d", svgMargin+c*svgCell, svgMargin, svgMargin+r.Rows*svgCell)
	}
	for row := 0; row <= r.Rows; row++ {
		fmt.Fprintf(&b, "M%d %dH%d", svgMargin, svgMargin+row*svgCell, svgMargin+r.Cols*svgCell)
	}
	b.WriteString(`"/>`)
	// Labels: Connect-X column numbers above and below; m,n,k letters above
	// and below, row numbers (1 at the bottom) on both sides.
	for c := 0; c < r.Cols; c++ {
		x := svgMargin + c*svgCell + svgCell/2
		l := html.EscapeString(r.ColumnLabel(c))
		fmt.Fprintf(&b, `<text class="kr-label" x="%d" y="%d">%s</text><text class="kr-label" x="%d" y="%d">%s</text>`,
			x, svgMargin/2, l, x, height-svgMargin/2, l)
	}
	if !r.Gravity() { // rows are labelled where moves are cells
		for row := 0; row < r.Rows; row++ {
			y := svgMargin + (r.Rows-1-row)*svgCell + svgCell/2
			fmt.Fprintf(&b, `<text class="kr-label" x="%d" y="%d">%d</text><text class="kr-label" x="%d" y="%d">%d</text>`,
				svgMargin/2, y, row+1, width-svgMargin/2, y, row+1)
		}
	}
	center := func(cell int) (int, int) {
		row, col := cell/r.Cols, cell%r.Cols
		return svgMargin + col*svgCell + svgCell/2, svgMargin + (r.Rows-1-row)*svgCell + svgCell/2
	}
	rad := svgCell/2 - 3
	for i, cell := range cellOf {
		x, y := center(cell)
		side := "kr-x"
		if i%2 == 1 {
			side = "kr-o"
		}
		mv := html.EscapeString(r.FormatMove(g.Moves[i]))
		fmt.Fprintf(&b, `<g class="kr-stone %s" data-move="%s" data-cell="%s" data-ply="%d"><circle cx="%d" cy="%d" r="%d"/>`,
			side, mv, html.EscapeString(cellName(r, cell)), i+1, x, y, rad)
		d := rad / 2
		if i%2 == 0 {
			fmt.Fprintf(&b, `<path class="kr-mark" d="M%d %dL%d %dM%d %dL%d %d"/></g>`, x-d, y-d, x+d, y+d, x-d, y+d, x+d, y-d)
		} else {
			fmt.Fprintf(&b, `<circle class="kr-mark" cx="%d" cy="%d" r="%d"/></g>`, x, y, d)
		}
	}
	if len(cellOf) > 0 {
		x, y := center(cellOf[len(cellOf)-1])
		fmt.Fprintf(&b, `<rect class="kr-last" x="%d" y="%d" width="%d" height="%d"/>`, x-svgCell/2+2, y-svgCell/2+2, svgCell-4, svgCell-4)
	}
	if line := pos.WinningLine(); len(line) > 0 {
		x0, y0 := center(line[0])
		x1, y1 := center(line[len(line)-1])
		var cells bytes.Buffer
		for i, c := range line {
			if i > 0 {
				cells.WriteByte(' ')
			}
			cells.WriteString(html.EscapeString(cellName(r, c)))
		}
		fmt.Fprintf(&b, `<line class="kr-win" x1="%d" y1="%d" x2="%d" y2="%d" data-cells="%s"/>`, x0, y0, x1, y1, cells.String())
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// cellName names a cell: its vertex for m,n,k, "COLUMN/ROW" (both from 1,
// row 1 at the bottom) for Connect-X.
func cellName(r engine.Rules, cell int) string {
	if r.Gravity() {
		return r.ColumnLabel(cell%r.Cols) + "/" + strconv.Itoa(cell/r.Cols+1)
	}
	return r.FormatMove(engine.Move(cell))
}
