package match

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/kinrow/kinrow/engine"
)

// ParseOpenings reads an openings file: one move list per line (a digit
// string such as "4453" for Connect-X up to 9 columns, otherwise moves
// separated by spaces or commas). Blank lines and lines starting with '#'
// are skipped. Every opening must be legal and leave the game open; the
// error names the first bad line by its number.
func ParseOpenings(rules engine.Rules, r io.Reader, name string) ([][]engine.Move, error) {
	var out [][]engine.Move
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		moves, err := rules.ParseMoveList(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		pos := engine.NewPosition(rules)
		if err := pos.PlayMoveList(moves); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if pos.Result() != engine.Open {
			return nil, fmt.Errorf("%s:%d: the opening ends the game (%s)", name, n, pos.Result().Describe())
		}
		out = append(out, moves)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no openings in the file", name)
	}
	return out, nil
}
