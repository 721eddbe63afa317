package c4set

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir returns the directory of the shared Connect-4 sets: shared/testdata/
// connect4 beside the module root found above the working directory.
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("c4set: working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "testdata", "connect4"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("c4set: no go.mod above %s", dir)
		}
		dir = parent
	}
}

// Read returns the first n lines (every line with n <= 0) of the shared set
// name (for example "Test_L1_R3.txt") that keep accepts (keep nil: every
// line), each split into its fields. It skips tb when the set is absent and
// fails it when the file cannot be read.
func Read(tb testing.TB, name string, n int, keep func(fields []string) bool) [][]string {
	tb.Helper()
	dir, err := Dir()
	if err != nil {
		tb.Skipf("shared Connect-4 set %s absent: %v", name, err)
	}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		tb.Skipf("shared Connect-4 set %s absent: %v", name, err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for (n <= 0 || len(out) < n) && sc.Scan() {
		fields := strings.Fields(sc.Text())
		if keep == nil || keep(fields) {
			out = append(out, fields)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("shared Connect-4 set %s: %v", name, err)
	}
	return out
}
