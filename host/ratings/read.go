package ratings

import (
	"fmt"
	"io"
	"os"

	"github.com/kinrow/kinrow/engine/record"
)

// Read reads game records, one JSON object per line, as `kinrow match
// --out` writes them, a line at a time through record.Reader and its judge:
// blank lines are skipped; any other line that is not a valid record (over
// record.MaxLineBytes, it does not decode, v does not vouch for it, its
// moves do not replay, its result, reason or winner do not follow from its
// moves, it is an open game, or its game is already in the file or its
// game id already read) is an error naming name and the line number; a
// torn last line is an error too, since a rating leaves out no game
// silently. v (nil: no signature check) is shared by every file of a run.
func Read(r io.Reader, name string, v *record.Verifier) ([]*record.Record, error) {
	ls, err := record.Reader{Verifier: v}.Read(name, r)
	if err != nil {
		return nil, err
	}
	if ls.Torn != nil {
		// A rating leaves out no game silently: the file is refused.
		return nil, fmt.Errorf("%s:%d: torn last line (no newline): %w", ls.Torn.Name, ls.Torn.N, ls.Torn.Err)
	}
	return recordsOf(ls), nil
}

// ReadSkipping reads like Read, but leaves out every line that is not a
// valid record, and a torn last line, and returns them in bad (each
// "name:N: why"), in order: kinrow ratings --skip-invalid.
func ReadSkipping(r io.Reader, name string, v *record.Verifier) (recs []*record.Record, bad []error, err error) {
	ls, err := record.Reader{Verifier: v}.ReadEvery(name, r)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range ls.Bad {
		bad = append(bad, b)
	}
	if ls.Torn != nil {
		bad = append(bad, fmt.Errorf("%s:%d: torn last line (no newline): %w", ls.Torn.Name, ls.Torn.N, ls.Torn.Err))
	}
	return recordsOf(ls), bad, nil
}

func recordsOf(ls record.Lines) []*record.Record {
	recs := make([]*record.Record, len(ls.Records))
	for i, l := range ls.Records {
		recs[i] = l.Rec
	}
	return recs
}

// ReadFile reads the records of one file (see Read).
func ReadFile(path string, v *record.Verifier) ([]*record.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	defer f.Close()
	return Read(f, path, v)
}

// ReadFileSkipping reads the records of one file (see ReadSkipping).
func ReadFileSkipping(path string, v *record.Verifier) ([]*record.Record, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read records: %w", err)
	}
	defer f.Close()
	return ReadSkipping(f, path, v)
}
