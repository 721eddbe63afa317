package c4set

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/internal/testbuild"
)

// Dir returns the directory of the shared Connect-4 sets: shared/testdata/
// connect4 beside the repository's root.
func Dir() string {
	return filepath.Join(testbuild.Root(), "..", "shared", "testdata", "connect4")
}

// Read returns the first n lines (every line with n <= 0) of the shared set
// name (for example "Test_L1_R3.txt") that keep accepts (keep nil: every
// line), each split into its fields. It skips tb when the set is absent and
// fails it when the file cannot be read.
func Read(tb testing.TB, name string, n int, keep func(fields []string) bool) [][]string {
	tb.Helper()
	f, err := os.Open(filepath.Join(Dir(), name))
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
