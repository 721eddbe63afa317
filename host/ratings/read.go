package ratings

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kinrow/kinrow/engine/record"
)

// Read reads game records, one JSON object per line, as `kinrow match
// --out` writes them. Blank lines are skipped; any other line that is not a
// valid record, a torn last line included, is an error naming name and the
// line number.
func Read(r io.Reader, name string) ([]*record.Record, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var recs []*record.Record
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if t := bytes.TrimSpace(line); len(t) > 0 {
				rec, perr := record.Parse(t)
				if perr == nil {
					perr = checkRecord(rec)
				}
				if perr != nil {
					if err == io.EOF && line[len(line)-1] != '\n' {
						return nil, fmt.Errorf("%s:%d: torn last line (no newline): %w", name, n, perr)
					}
					return nil, fmt.Errorf("%s:%d: %w", name, n, perr)
				}
				recs = append(recs, rec)
			}
		}
		if errors.Is(err, io.EOF) {
			return recs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// ReadFile reads the records of one file (see Read).
func ReadFile(path string) ([]*record.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// checkRecord checks what the ratings need of a record: two named players
// and a known result.
func checkRecord(rec *record.Record) error {
	if rec.Players.X == "" || rec.Players.O == "" {
		return fmt.Errorf("game record: a player has no name (x %q, o %q)", rec.Players.X, rec.Players.O)
	}
	switch rec.Result {
	case "X+", "O+", "0", "":
		return nil
	}
	return fmt.Errorf("game record: result %q: want X+, O+, 0 or empty (open)", rec.Result)
}
