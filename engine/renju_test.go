package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// diagram is a renju position read from testdata/renju: the stones, and the
// foul expected on every empty cell.
type diagram struct {
	pos   *Position
	fouls map[int]Foul // empty cell -> expected foul (NoFoul for '.')
	why   string
}

// readDiagram parses a diagram file (see testdata/renju/README.md).
func readDiagram(t testing.TB, text string) diagram {
	t.Helper()
	r, _ := ParseRules("renju")
	d := diagram{pos: NewPosition(r), fouls: map[int]Foul{}}
	row := r.Rows - 1
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			d.why += strings.TrimSpace(strings.TrimPrefix(line, "#")) + " "
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if _, err := strconv.Atoi(fields[0]); err == nil && len(fields) == r.Cols+2 {
			fields = fields[1 : r.Cols+1]
		}
		if len(fields) != r.Cols {
			continue // column letters
		}
		if row < 0 {
			t.Fatalf("more than %d rows", r.Rows)
		}
		for col, f := range fields {
			cell := row*r.Cols + col
			switch f {
			case "x":
				d.pos.cells[cell] = X
			case "o":
				d.pos.cells[cell] = O
			case ".":
				d.fouls[cell] = NoFoul
			case "?":
				// an empty cell the diagram does not judge
			case "3":
				d.fouls[cell] = DoubleThree
			case "4":
				d.fouls[cell] = DoubleFour
			case "6":
				d.fouls[cell] = Overline
			default:
				t.Fatalf("row %d: unknown mark %q", row+1, f)
			}
		}
		row--
	}
	if row != -1 {
		t.Fatalf("%d rows, want %d", r.Rows-1-row, r.Rows)
	}
	return d
}

func TestRenjuDiagrams(t *testing.T) {
	files, err := filepath.Glob("testdata/renju/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no diagrams: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d := readDiagram(t, string(text))
			before := append([]Color(nil), d.pos.cells...)
			for cell, want := range d.fouls {
				if got := d.pos.foul(cell); got != want {
					t.Errorf("%s: foul %q, want %q (%s)", d.pos.rules.FormatMove(Move(cell)), got, want, d.why)
				}
			}
			for i := range before {
				if before[i] != d.pos.cells[i] {
					t.Fatalf("the judgement left the board changed at %s", d.pos.rules.FormatMove(Move(i)))
				}
			}
		})
	}
}
