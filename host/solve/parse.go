package solve

import (
	"strings"
	"unicode"

	"github.com/kinrow/kinrow/engine"
)

// positionParser reads the positions of input lines under one rules,
// checking each on a board it rewinds for the next (one board for the
// run, not one per line).
type positionParser struct {
	rules engine.Rules
	// digits: Connect-X up to 9 columns, where a move list is a string of
	// column digits, sent to the bot as it is.
	digits bool
	pos    *engine.Position
}

func newPositionParser(rules engine.Rules) *positionParser {
	return &positionParser{rules: rules, digits: rules.DigitMoveList(), pos: engine.NewPosition(rules)}
}

// isSep reports whether r separates the fields of a line.
func isSep(r rune) bool { return r == ',' || unicode.IsSpace(r) }

// parse reads the move list at the start of a line: its echo, and its
// moves in notation, or list true when the echo is a move list of digits
// standing for them. The move list ends at the first field that is not a
// move (a digit list is the first field alone).
func (pp *positionParser) parse(line string) (echo string, moves []string, list bool, err error) {
	rules := pp.rules
	var ms []engine.Move
	if pp.digits {
		echo = strings.TrimLeftFunc(line, isSep)
		if i := strings.IndexFunc(echo, isSep); i >= 0 {
			echo = echo[:i]
		}
		if echo == "" {
			return "", nil, false, nil
		}
		if ms, err = rules.ParseMoveList(echo); err != nil {
			return echo, nil, false, err
		}
	} else {
		fields := strings.FieldsFunc(line, isSep)
		if len(fields) == 0 {
			return "", nil, false, nil
		}
		n := 0
		for n < len(fields) {
			if _, err := rules.ParseMove(fields[n]); err != nil {
				break
			}
			n++
		}
		if n == 0 && !strings.HasPrefix(strings.TrimSpace(line), "-") {
			_, err := rules.ParseMove(fields[0])
			return fields[0], nil, false, err
		}
		echo = strings.Join(fields[:n], " ")
		if ms, err = rules.ParseMoveList(echo); err != nil {
			return echo, nil, false, err
		}
	}
	for pp.pos.Ply() > 0 {
		pp.pos.Undo()
	}
	if err := pp.pos.PlayMoveList(ms); err != nil {
		return echo, nil, false, err
	}
	if pp.digits {
		return echo, nil, echo != "", nil // the echo is the move list: sent as one string
	}
	moves = make([]string, len(ms))
	for i, m := range ms {
		moves[i] = rules.FormatMove(m)
	}
	return echo, moves, false, nil
}
