package ratings

import (
	"fmt"
	"io"
	"os"

	"github.com/kinrow/kinrow/engine/record"
)

// Read reads game records, one JSON object per line, as `kinrow match
// --out` writes them, through record.ReadLines: blank lines are skipped;
// any other line that is not a valid record is an error naming name and the
// line number; a torn last line is an error too, since a rating leaves out
// no game silently.
func Read(r io.Reader, name string) ([]*record.Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	ls, err := record.ReadLines(name, data, func(line []byte) (*record.Record, error) {
		rec, err := record.Parse(line)
		if err == nil {
			err = checkRecord(rec)
		}
		return rec, err
	})
	if err != nil {
		return nil, err
	}
	if ls.Torn != nil {
		// A rating leaves out no game silently: the file is refused.
		return nil, fmt.Errorf("%s:%d: torn last line (no newline): %w", ls.Torn.Name, ls.Torn.N, ls.Torn.Err)
	}
	recs := make([]*record.Record, len(ls.Records))
	for i, l := range ls.Records {
		recs[i] = l.Rec
	}
	return recs, nil
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
