package match

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RefuseNonEmpty is the one check of kinrow match --out, --out-format and
// kinrow merge's output (four copies before, with four messages): a missing
// or empty file or directory passes; anything else is ErrOutNotEmpty,
// naming the path, what it holds and the caller's hint.
func TestRefuseNonEmpty(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	emptyDir := filepath.Join(dir, "empty.psq")
	fullDir := filepath.Join(dir, "full.psq")
	for _, d := range []string{emptyDir, fullDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("full.psq/game1.psq", "Piskvork\n")
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "missing.jsonl"), ""},
		{"empty file", mk("empty.jsonl", ""), ""},
		{"empty directory", emptyDir, ""},
		{"file", mk("two.jsonl", "a\nb\n"), "two.jsonl: the file is not empty (4 bytes, 2 lines): HINT; kinrow never overwrites records"},
		{"directory", fullDir, "full.psq: the file is not empty (a directory of 1 entries): HINT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := RefuseNonEmpty(tc.path, "HINT")
			if tc.want == "" {
				if err != nil {
					t.Fatalf("RefuseNonEmpty = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrOutNotEmpty) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("RefuseNonEmpty = %v, want ErrOutNotEmpty saying %q", err, tc.want)
			}
		})
	}
}
