package record

import (
	"bytes"
	"encoding/json"
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
}

// ReadLines reads the JSON-lines game records in data, the content of the
// file called name. It is the one reader of record files (kinrow match
// --resume, merge, ratings, export, view). The policy:
//
//   - blank lines are skipped;
//   - each other line goes through parse (Parse when parse is nil);
//   - the last line, when data does not end with a newline, is torn if it
//     does not parse, is not valid JSON, and starts like a record line: it
//     is returned in Lines.Torn with its line number, never as an error;
//   - any other line that does not parse is an error "name:N: ..." that
//     wraps parse's error.
func ReadLines(name string, data []byte, parse func([]byte) (*Record, error)) (Lines, error) {
	if parse == nil {
		parse = Parse
	}
	var out Lines
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the file ends with a newline
	}
	noNewline := len(data) > 0 && data[len(data)-1] != '\n'
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
		if err != nil {
			if last && isTorn(t) {
				out.Torn = &Torn{Name: name, N: i + 1, Offset: int64(start), Err: err}
				return out, nil
			}
			return Lines{}, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		out.Records = append(out.Records, Line{N: i + 1, Rec: rec, Raw: t})
		out.NeedNewline = last
	}
	return out, nil
}

// isTorn tells whether a last line without its newline is the start of a
// record line cut short.
func isTorn(line []byte) bool {
	return !json.Valid(line) && (bytes.HasPrefix(line, linePrefix) || bytes.HasPrefix(linePrefix, line))
}
