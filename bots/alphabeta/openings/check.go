package openings

import (
	"fmt"
	"io"
	"os"
)

// Check refuses a Config kinrow openings cannot serve, naming the flag
// that was wrong and what is accepted.
func (c Config) Check() error {
	switch {
	case c.Plies < 0 || c.Plies >= c.Rules.Cells():
		return fmt.Errorf("--plies %d: want 0..%d", c.Plies, c.Rules.Cells()-1)
	case c.N < 1:
		return fmt.Errorf("-n %d: want at least 1", c.N)
	case c.MaxAbsScore < 0:
		return fmt.Errorf("--max-abs-score %d: want 0 or more", c.MaxAbsScore)
	}
	return nil
}

// WriteFile writes the openings as Write does to path, or to stdout when
// path is "".
func WriteFile(path string, stdout io.Writer, c Config, ops []Opening) error {
	if path == "" {
		return Write(stdout, c, ops)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("openings: %w", err)
	}
	if err := Write(f, c, ops); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("openings: %w", err)
	}
	return nil
}
