package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// linePrefix is how every record line kinrow writes starts (Rules is the
// first field), so a torn last line starts with it, or is a prefix of it.
var linePrefix = []byte(`{"rules":`)

// Line is one record of a JSON-lines file with its line number (from 1)
// and the line itself, trimmed of white space.
type Line struct {
	N   int
	Rec *Record
	Raw []byte
}

// Torn is the torn last line of a records file: a writer killed in the
// middle of a line leaves it without its newline, not valid JSON, and the
// start of a record line. It is never a record.
type Torn struct {
	Name   string // the file's name, as given to ReadLines
	N      int    // its line number, from 1
	Offset int64  // where it starts: cut the file here before appending
	Err    error  // why it did not parse
}

// String names the file and the line: "games.jsonl:7: torn last line (no
// newline): ...".
func (t *Torn) String() string {
	return fmt.Sprintf("%s:%d: torn last line (no newline): %v", t.Name, t.N, t.Err)
}

// Lines is what ReadLines found in a records file.
type Lines struct {
	Records []Line
	// Torn is the torn last line, or nil. What the caller does with it is
	// its own choice (cut it before appending, leave it out with a warning,
	// refuse the file), but the reader never counts it as a record.
	Torn *Torn
	// NeedNewline: the last line is a complete record without its newline;
	// a writer appending to the file writes one first.
	NeedNewline bool
	// Bad holds the lines that are not valid records, in order, when
	// ReadEveryLine read the file; ReadLines refuses the file at the first.
	Bad []*Bad
}

// Bad is a line of a records file that is not a valid record: it does not
// decode, its moves do not replay, the judge (Record.Judge) refuses its
// result, or its game (round and game of one schedule) is already in the
// file. Its Error is "name:N: why".
type Bad struct {
	Name string // the file's name, as given to ReadLines
	N    int    // its line number, from 1
	Err  error  // why it is not a valid record
}

func (b *Bad) Error() string { return fmt.Sprintf("%s:%d: %v", b.Name, b.N, b.Err) }

// Unwrap returns why the line is bad.
func (b *Bad) Unwrap() error { return b.Err }

// ErrDuplicate is wrapped by the error of a record whose game (its
// schedule, round and game) an earlier line of the file holds.
var ErrDuplicate = errors.New("game recorded twice")

// ReadLines reads the JSON-lines game records in data, the content of the
// file called name. It is the one reader of record files (kinrow match
// --resume, merge, ratings, export, view). The policy:
//
//   - blank lines are skipped;
//   - each other line goes through parse (ParseJudged when parse is nil),
//     then the judge: Record.Judge replays its moves and checks that its
//     result, reason and winner follow from them;
//   - a record of a game (schedule, round and game number) an earlier line
//     holds is refused: a game is played and counted once;
//   - the last line, when data does not end with a newline, is torn if it
//     does not parse, is not valid JSON, and starts like a record line: it
//     is returned in Lines.Torn with its line number, never as an error;
//   - any other line that does not parse or is refused is an error
//     "name:N: ..." (a *Bad) that wraps why.
func ReadLines(name string, data []byte, parse func([]byte) (*Record, error)) (Lines, error) {
	ls := readLines(name, data, parse, true)
	if len(ls.Bad) > 0 {
		return Lines{}, ls.Bad[0]
	}
	return ls, nil
}

// ReadEveryLine reads like ReadLines, but never fails: every line that is
// not a valid record is left out and listed in Lines.Bad (a later record
// of a game already read is the bad one), so that a reader may show or
// count what it could read (kinrow ratings --skip-invalid, the viewer).
func ReadEveryLine(name string, data []byte, parse func([]byte) (*Record, error)) Lines {
	return readLines(name, data, parse, false)
}

// dupError is the error of a game recorded twice: it matches ErrDuplicate.
type dupError struct{ msg string }

func (e *dupError) Error() string        { return e.msg }
func (e *dupError) Is(target error) bool { return target == ErrDuplicate }

// gameKey identifies a game of a match: its schedule, round and game.
type gameKey struct {
	schedule    string
	round, game int
}

func readLines(name string, data []byte, parse func([]byte) (*Record, error), stop bool) Lines {
	judged := parse == nil
	if judged {
		parse = ParseJudged
	}
	var out Lines
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the file ends with a newline
	}
	noNewline := len(data) > 0 && data[len(data)-1] != '\n'
	seen := map[gameKey]int{} // the line of each numbered game
	offset := 0
	for i, line := range lines {
		start := offset
		offset += len(line) + 1
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		last := i == len(lines)-1 && noNewline
		rec, err := parse(t)
		if err != nil && last && isTorn(t) {
			out.Torn = &Torn{Name: name, N: i + 1, Offset: int64(start), Err: err}
			return out
		}
		if err == nil && !judged {
			err = rec.Judge()
		}
		if err == nil && (rec.Round != 0 || rec.Game != 0) {
			key := gameKey{rec.Schedule, rec.Round, rec.Game}
			if first, dup := seen[key]; dup {
				err = &dupError{fmt.Sprintf("round %d game %d is already recorded on line %d; a game is played and counted once",
					rec.Round, rec.Game, first)}
			} else {
				seen[key] = i + 1
			}
		}
		if err != nil {
			out.Bad = append(out.Bad, &Bad{Name: name, N: i + 1, Err: err})
			if stop {
				return out
			}
			continue
		}
		out.Records = append(out.Records, Line{N: i + 1, Rec: rec, Raw: t})
		out.NeedNewline = last
	}
	return out
}

// isTorn tells whether a last line without its newline is the start of a
// record line cut short.
func isTorn(line []byte) bool {
	return !json.Valid(line) && (bytes.HasPrefix(line, linePrefix) || bytes.HasPrefix(linePrefix, line))
}
