package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/recordfmt"
)

// recordsFile is the records of host/recordfmt's tests: a gomoku win, a
// Connect-4 win, a tic-tac-toe draw, a 12-column Connect-X forfeit and an
// open 20x30 game.
const recordsFile = "../../host/recordfmt/testdata/games.jsonl"

// runKinrow runs the command in-process and returns its status and output.
func runKinrow(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestExportFormats(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout, or in stderr when code != 0
	}{
		{[]string{"--format", "text"}, 0, "# game 2 (round 1, game 2): mics (x) vs alphabeta (o), connectx:6x7x4: X+ win\n4545454\n"},
		{[]string{"--format", "text", "--game", "4"}, 0, "\n10 11 12 1 10\n"},
		{[]string{"--format", "psq", "--game", "1"}, 0, "Piskvork 15x15, 11:11, 0\r\n8,8,1\r\n"},
		{[]string{"--format", "psq"}, exitUsage, "choose one with --game N"},
		{[]string{"--format", "psq", "--game", "2"}, 1, "PSQ holds m,n,k boards only"},
		{[]string{"--format", "sgf"}, 0, "RU[mnk:20x30x5]"},
		{[]string{"--format", "sgf", "--game", "2"}, 1, "no m,n,k game"},
		{[]string{"--format", "svg", "--game", "2", "--ply", "3"}, 0, `data-ply="3"`},
		{[]string{"--format", "svg", "--game", "2", "--ply", "30"}, exitUsage, "--ply 30: the game has 7 plies"},
		{[]string{"--format", "svg", "--game", "9"}, exitUsage, "holds 5 games (1 to 5)"},
		{[]string{"--format", "pgn"}, exitUsage, "accepted are psq, sgf, text and svg"},
	} {
		code, out, errs := runKinrow(t, "", append(append([]string{"export"}, tc.args...), recordsFile)...)
		got := out
		if tc.code != 0 {
			got = errs
		}
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("export %v: status %d, want %d with %q in\n%s%s", tc.args, code, tc.code, tc.want, out, errs)
		}
	}
	code, _, errs := runKinrow(t, "", "export", "--format", "text", "export_test.go")
	if code != 1 || !strings.Contains(errs, "export_test.go:1: not kinrow game records") {
		t.Errorf("export of a Go file: status %d, %s", code, errs)
	}
}

// Export then import gives the same moves, for PSQ and SGF, and import's
// output is an openings file kinrow match reads (a finished game loses its
// last move there).
func TestExportImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	recs, _, err := recordfmt.LoadRecords(mustOpen(t, recordsFile), "games")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format string
		game   string
		plies  int // the plies of the openings, after a finished game's last is cut
	}{
		{"psq", "1", 8}, {"sgf", "1", 8}, {"sgf", "3", 8}, {"psq", "5", 3}, {"sgf", "5", 3},
	} {
		file := filepath.Join(dir, "g"+tc.game+"."+tc.format)
		if code, _, errs := runKinrow(t, "", "export", "--format", tc.format, "--game", tc.game, "--out", file, recordsFile); code != 0 {
			t.Fatalf("export: %s", errs)
		}
		code, out, errs := runKinrow(t, "", "import", file)
		if code != 0 {
			t.Fatalf("import %s: %s", file, errs)
		}
		rec := recs[int(tc.game[0]-'1')]
		g, _ := recordfmt.FromRecord(rec)
		openings, err := match.ParseOpenings(g.Rules, strings.NewReader(out), file)
		if err != nil {
			t.Fatalf("import %s wrote %q: %v", file, out, err)
		}
		if len(openings) != 1 || !reflect.DeepEqual(openings[0], g.Moves[:tc.plies]) {
			t.Errorf("%s game %s: export then import = %v, want %v", tc.format, tc.game, openings, g.Moves[:tc.plies])
		}
		if tc.plies < len(g.Moves) && !strings.Contains(errs, "the opening stops before it") {
			t.Errorf("import of a finished game did not say it cut the last move: %s", errs)
		}
	}
	// --plies and --rules.
	psq := filepath.Join(dir, "g1.psq")
	code, out, errs := runKinrow(t, "", "import", "--plies", "3", "--rules", "gomoku", psq)
	if code != 0 || !strings.HasSuffix(out, "\nh8 a1 h9\n") {
		t.Errorf("import --plies 3: %d %q %s", code, out, errs)
	}
	code, _, errs = runKinrow(t, "", "import", "--rules", "mnk:15x15x4", filepath.Join(dir, "g5.psq"))
	if code != 1 || !strings.Contains(errs, "not --rules mnk:15x15x4") {
		t.Errorf("import with other rules: %d %s", code, errs)
	}
	code, _, errs = runKinrow(t, "", "import", psq, filepath.Join(dir, "g3.sgf"))
	if code != 1 || !strings.Contains(errs, "one game's openings") {
		t.Errorf("import of mixed boards: %d %s", code, errs)
	}
	// From stdin, an SGF of Connect-X-free games.
	code, out, _ = runKinrow(t, "(;GM[4]SZ[15];B[hh];W[ii])", "import", "-")
	if code != 0 || !strings.HasSuffix(out, "\nh8 j7\n") {
		t.Errorf("import - : %d %q", code, out)
	}
	code, _, errs = runKinrow(t, "hello", "import", "-")
	if code != exitUsage || !strings.Contains(errs, "no board size") {
		t.Errorf("import of junk: %d %s", code, errs)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
