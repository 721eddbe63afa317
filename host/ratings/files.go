package ratings

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/termsafe"
)

// ReadFiles reads the records of every file of names in turn ("-" reads
// stdin), as kinrow ratings does: each record verified by v (a game id is
// refused when any file read before holds it), each file refused as a
// whole for an invalid record unless skip leaves such records out,
// returned in skipped.
func ReadFiles(names []string, stdin io.Reader, v *record.Verifier, skip bool) (recs []*record.Record, skipped []error, err error) {
	for _, name := range names {
		var rs []*record.Record
		var bad []error
		switch {
		case name == "-" && skip:
			rs, bad, err = ReadSkipping(stdin, "stdin", v)
		case name == "-":
			rs, err = Read(stdin, "stdin", v)
		case skip:
			rs, bad, err = ReadFileSkipping(name, v)
		default:
			rs, err = ReadFile(name, v)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("ratings: %w", err)
		}
		recs = append(recs, rs...)
		skipped = append(skipped, bad...)
	}
	return recs, skipped, nil
}

// WriteSkipped names on w, each line behind prefix, the records that
// ReadFiles left out (the first max of them), then counts them.
func WriteSkipped(w io.Writer, prefix string, skipped []error, max int) {
	n := len(skipped)
	if n == 0 {
		return
	}
	for i, err := range skipped {
		if i == max {
			fmt.Fprintf(w, "%sskipped: ... and %d more\n", prefix, n-i)
			break
		}
		fmt.Fprintf(w, "%sskipped: %s\n", prefix, termsafe.Printable(err.Error()))
	}
	word := "records"
	if n == 1 {
		word = "record"
	}
	fmt.Fprintf(w, "%sleft out %d invalid %s (--skip-invalid)\n", prefix, n, word)
}

// ErrInterrupted is RateFiles' error when its context ends first.
var ErrInterrupted = errors.New("interrupted")

// RateFiles reads the records of names (ReadFiles) and rates them (Fit)
// aside, so that the end of ctx ends the wait even while it reads stdin:
// then it returns ErrInterrupted at once. skipped holds the records skip
// left out, also when err is not nil. v verifies every record (ReadFiles).
func RateFiles(ctx context.Context, names []string, stdin io.Reader, v *record.Verifier, skip bool, opts Options) (rep *Report, skipped []error, err error) {
	type result struct {
		rep     *Report
		skipped []error
		err     error
	}
	done := make(chan result, 1)
	go func() {
		recs, skipped, err := ReadFiles(names, stdin, v, skip)
		var rep *Report
		if err == nil {
			rep, err = Fit(recs, opts)
		}
		done <- result{rep, skipped, err}
	}()
	select {
	case <-ctx.Done():
		return nil, nil, ErrInterrupted
	case r := <-done:
		return r.rep, r.skipped, r.err
	}
}
