package ratings

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// RateFiles returns at once when its context ends, even while stdin has
// not ended (kinrow ratings - under Ctrl-C).
func TestRateFilesInterrupted(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := RateFiles(ctx, []string{"-"}, pr, nil, false, Options{}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("error %v, want ErrInterrupted", err)
	}
}

// Skipped records are named, the first max only, and counted.
func TestWriteSkipped(t *testing.T) {
	var out strings.Builder
	WriteSkipped(&out, "kinrow ratings: ", []error{errors.New("a:1: bad"), errors.New("a:2: bad"), errors.New("a:3: bad")}, 2)
	want := "kinrow ratings: skipped: a:1: bad\nkinrow ratings: skipped: a:2: bad\nkinrow ratings: skipped: ... and 1 more\nkinrow ratings: left out 3 invalid records (--skip-invalid)\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	WriteSkipped(&out, "", nil, 2)
	if out.String() != "" {
		t.Errorf("nothing skipped: %q", out.String())
	}
}

// An Elo that rounds to zero prints without a minus sign.
func TestEloTextHasNoNegativeZero(t *testing.T) {
	for _, tc := range []struct {
		elo  float64
		sign bool
		want string
	}{
		{-0.04, true, "+0.0"}, {-0.04, false, "0.0"}, {-0.05, true, "-0.1"}, {0.04, true, "+0.0"}, {-12.34, false, "-12.3"},
	} {
		if got := estimateText(Estimate{Elo: tc.elo, Fixed: true}, tc.sign); got != tc.want+" (fixed)" {
			t.Errorf("estimateText(%v, %v) = %q, want %q", tc.elo, tc.sign, got, tc.want+" (fixed)")
		}
	}
}
