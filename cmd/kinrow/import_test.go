package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const psqTestdata = "../../host/recordfmt/testdata/psq"

// kinrow import is strict: a PSQ line that is neither a move nor a line a
// PSQ has after its moves, or an SGF rule kinrow cannot read, is refused
// with exit 2 naming FILE:LINE (stdin line N), what it holds and what is
// accepted, and nothing is written; real Piskvork and Gomocup PSQ files
// import.
func TestImportStrict(t *testing.T) {
	dir := t.TempDir()
	sgf := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		file string
		code int
		want []string // in stderr
	}{
		{filepath.Join(psqTestdata, "gomocup.psq"), 0, []string{"openings for --rules mnk:20x20x5"}},
		{filepath.Join(psqTestdata, "piskvork-human.psq"), 0, nil},
		{filepath.Join(psqTestdata, "alphazero.psq"), 0, nil},
		{filepath.Join(psqTestdata, "bom.psq"), 0, nil},
		{filepath.Join(psqTestdata, "bad-time.psq"), exitUsage, []string{"bad-time.psq:3: psq:", `"12,12,1e3"`, "accepted:", `"X,Y,MS"`}},
		{filepath.Join(psqTestdata, "bad-last-move.psq"), exitUsage, []string{"bad-last-move.psq:4:", `"12,12,1e3"`}},
		{filepath.Join(psqTestdata, "text-among-moves.psq"), exitUsage, []string{"text-among-moves.psq:4:", `(line 3, "h8", is not a move)`}},
		{filepath.Join(psqTestdata, "one-name.psq"), exitUsage, []string{"one-name.psq:4:", "both players"}},
		{sgf("swap2.sgf", "(;GM[4]SZ[15]\nRU[Swap2];B[hh];W[ii])"), exitUsage, []string{"swap2.sgf:1: sgf: game 1: RU[Swap2]: kinrow cannot read", "accepted are"}},
		{sgf("c4.sgf", "(;GM[4]SZ[15]RU[connect4];B[hh])"), exitUsage, []string{"RU[connect4]", "not an m,n,k game"}},
		{sgf("renju.sgf", "(;GM[4]SZ[15]RU[Renju];B[hh];W[ii])"), 0, []string{"openings for --rules mnk:15x15x5:renju"}},
	} {
		out := filepath.Join(dir, "out-"+filepath.Base(tc.file)+".txt")
		code, stdout, errs := runKinrow(t, "", "import", "--out", out, tc.file)
		if code != tc.code {
			t.Errorf("import %s: exit %d, want %d\n%s", tc.file, code, tc.code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("import %s: stderr %q, want %q in it", tc.file, errs, w)
			}
		}
		_, statErr := os.Stat(out)
		if tc.code != 0 && (statErr == nil || stdout != "") {
			t.Errorf("import %s refused, yet wrote %s (%v) or stdout %q", tc.file, out, statErr, stdout)
		}
		if tc.code == 0 && statErr != nil {
			t.Errorf("import %s: %v", tc.file, statErr)
		}
	}
	// From stdin, the line is said as such.
	data, err := os.ReadFile(filepath.Join(psqTestdata, "bad-time.psq"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runKinrow(t, string(data), "import", "-")
	if code != exitUsage || out != "" || !strings.Contains(errs, `kinrow import: stdin line 3: psq: "12,12,1e3"`) {
		t.Errorf("import - of a broken move line: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A good file then a bad one: nothing at all is written.
	code, out, _ = runKinrow(t, "", "import", filepath.Join(psqTestdata, "gomocup.psq"), filepath.Join(psqTestdata, "bad-time.psq"))
	if code != exitUsage || out != "" {
		t.Errorf("import good then bad: exit %d, stdout %q", code, out)
	}
	// The moves of a Gomocup PSQ are all there.
	code, out, errs = runKinrow(t, "", "import", filepath.Join(psqTestdata, "gomocup.psq"))
	if code != 0 || !strings.HasSuffix(out, "\nk11 l10 k10 l11\n") || !strings.Contains(out, "Embryo21_s.zip (x) vs Rapfi.zip (o)") {
		t.Errorf("import gomocup.psq: exit %d, %q, %s", code, out, errs)
	}
}
