// Package scripts holds the user-facing scripts; its tests run them against
// freshly built binaries.
package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/internal/testbuild"
)

// binDir holds the binaries built by TestMain (test-only package state).
var binDir string

func TestMain(m *testing.M) {
	testbuild.Main(m, "kinrow-scripts-", &binDir, func(dir string) error {
		// The referee's key of the kinrow the scripts run: made here, never
		// in the user's config directory.
		os.Setenv("KINROW_CONFIG_DIR", filepath.Join(dir, "config"))
		return testbuild.Build(dir, "crash")
	})
}

func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil && !strings.Contains(name, "/") {
		t.Skipf("%s not installed", name)
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), append([]string{"KINROW_BOT_PATH=" + binDir, "TMPDIR=" + t.TempDir()}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

func TestRefereeScript(t *testing.T) {
	kinrow := filepath.Join(binDir, "kinrow")
	for _, rules := range []string{"connect4", "tictactoe"} {
		out := run(t, nil, "python3", "referee.py", "--kinrow", kinrow, "--rules", rules, "--movetime", "200", "random", "random")
		if !strings.Contains(out, "result: X+") && !strings.Contains(out, "result: O+") && !strings.Contains(out, "result: 0") {
			t.Errorf("%s: no result:\n%s", rules, out)
		}
	}
	// A crashing bot forfeits; the script reports the host's reason.
	out := run(t, nil, "python3", "referee.py", "--kinrow", kinrow, "random", "crash")
	if !strings.Contains(out, "result: X+ forfeit: o (crash) crashed") {
		t.Errorf("crash game:\n%s", out)
	}
}

func TestTournamentScript(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.md")
	run(t, []string{"KINROW=" + filepath.Join(binDir, "kinrow"), "RULES=tictactoe connect4", "GAMES=2",
		"MOVETIME=200ms", "OUT=" + out}, "bash", "tournament.sh")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{"## tictactoe", "## connect4", "W-D-L"} {
		if !strings.Contains(text, want) {
			t.Errorf("results lack %q:\n%s", want, text)
		}
	}
	// Run again (as after an interruption): the records are continued with
	// --resume, never refused or overwritten, and the tables are the same.
	records := strings.TrimSuffix(out, ".md") + "-connect4.jsonl"
	before, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	run(t, []string{"KINROW=" + filepath.Join(binDir, "kinrow"), "RULES=tictactoe connect4", "GAMES=2",
		"MOVETIME=200ms", "OUT=" + out}, "bash", "tournament.sh")
	after, _ := os.ReadFile(records)
	if string(after) != string(before) {
		t.Errorf("a second run changed %s (a finished schedule plays nothing more)", records)
	}
	if again, _ := os.ReadFile(out); string(again) != text {
		t.Errorf("a resumed run's tables differ:\n%s\nfirst:\n%s", again, text)
	}
	// Another GAMES cannot continue the records: refused before the tables
	// are touched, naming --games as the difference.
	cmd := exec.Command("bash", "tournament.sh")
	cmd.Env = append(os.Environ(), "KINROW_BOT_PATH="+binDir, "TMPDIR="+t.TempDir(), "KINROW="+filepath.Join(binDir, "kinrow"),
		"RULES=tictactoe connect4", "GAMES=4", "MOVETIME=200ms", "OUT="+out)
	msg, err := cmd.CombinedOutput()
	if err == nil || cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(msg), "--games 2") {
		t.Errorf("a rerun with GAMES=4: %v\n%s", err, msg)
	}
	if again, _ := os.ReadFile(out); string(again) != text {
		t.Errorf("a refused rerun changed the tables:\n%s", again)
	}
}

// TestSolveBenchScript runs solve-bench.sh on the first lines of the shared
// Connect-4 sets: a row per set, mode and --jobs, every answer exact; a
// set whose file holds a wrong score is reported as differing.
func TestSolveBenchScript(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("GNU time (/usr/bin/time) not installed")
	}
	// Test_L2_R1 gets a wrong score on its second line.
	sets := shortSets(t, 4, 1, "Test_L3_R1.txt", "Test_L2_R1.txt", "Test_L1_R1.txt", "Test_L1_R3.txt")
	out := run(t, []string{"KINROW=" + filepath.Join(binDir, "kinrow"), "SETS=" + sets, "RUNS=1", "JOBS=1 2"}, "bash", "solve-bench.sh")
	var rows, boundary []string
	for _, r := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(r, " boundary: ") {
			boundary = append(boundary, r)
		} else {
			rows = append(rows, r)
		}
	}
	// The plugin boundary's figures of L3_R1 and L2_R1 (issue 17), then
	// the table.
	if len(boundary) != 2 || len(rows) != 14 {
		t.Fatalf("%d boundary rows and %d rows, want 2 and 7 sets x 2 job counts:\n%s", len(boundary), len(rows), out)
	}
	for _, r := range boundary {
		for _, want := range []string{"start-up", "solver", "µs/position"} {
			if !strings.Contains(r, want) {
				t.Errorf("boundary row %q lacks %q", r, want)
			}
		}
	}
	for _, r := range append(rows, boundary...) {
		wrong := strings.HasPrefix(r, "Test_L2_R1")
		if wrong && !strings.Contains(r, "DIFFERS") || !wrong && !strings.HasSuffix(r, "exact") {
			t.Errorf("row %q", r)
		}
	}
}

// TestSolveBenchSide runs solve-bench.sh's side-by-side rows with kinrow
// itself standing in for Pons' solver (same input and output format):
// line ranges, chunks interleaved, weak rows, and a file whose score is
// wrong reported as differing.
func TestSolveBenchSide(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("GNU time (/usr/bin/time) not installed")
	}
	kinrow := filepath.Join(binDir, "kinrow")
	// Test_L2_R1 gets a wrong score on its fourth line.
	sets := shortSets(t, 8, 3, "Test_L3_R1.txt", "Test_L2_R1.txt")
	pons := filepath.Join(t.TempDir(), "c4solver")
	stand := "#!/bin/sh\n[ \"$1\" = -w ] && set -- --weak\nexec " + kinrow + " solve \"$@\" 2>/dev/null\n"
	if err := os.WriteFile(pons, []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	out := run(t, []string{"KINROW=" + kinrow, "SETS=" + sets, "C4SOLVER=" + pons, "ONLY=side", "CHUNK=3", "THREADS=1 2",
		"SIDE_ROWS=L3_R1:2-7:strong L3_R1:8:weak L2_R1:1-3:strong L2_R1:2-5:strong"}, "bash", "solve-bench.sh")
	var rows []string
	for _, r := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(r, "L") {
			rows = append(rows, r)
		}
	}
	want := []struct{ prefix, check string }{
		{"L3_R1  strong 2-7", "| exact"},
		{"L3_R1  weak   8", "| exact"},
		{"L2_R1  strong 1-3", "| exact"},
		{"L2_R1  strong 2-5", "DIFFERS"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), out)
	}
	for i, w := range want {
		r := rows[i]
		if !strings.HasPrefix(r, w.prefix) || !strings.HasSuffix(r, w.check) && !strings.Contains(r, w.check) {
			t.Errorf("row %q: want %q ... %q", r, w.prefix, w.check)
		}
		if !strings.Contains(r, "threads 1") || !strings.Contains(r, "threads 2") {
			t.Errorf("row %q lacks a column per thread count", r)
		}
	}
}

// shortSets writes the first n lines of each named shared Connect-4 set to
// a temporary directory, which it returns, with a wrong score (99) on
// Test_L2_R1's line wrong (0-based); it skips the test when a set is
// absent.
func shortSets(t *testing.T, n, wrong int, names ...string) string {
	t.Helper()
	sets := t.TempDir()
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "shared", "testdata", "connect4", name))
		if err != nil {
			t.Skipf("shared set %s absent: %v", name, err)
		}
		lines := strings.SplitAfter(string(b), "\n")[:n]
		if name == "Test_L2_R1.txt" {
			f := strings.Fields(lines[wrong])
			f[1] = "99"
			lines[wrong] = strings.Join(f, " ") + "\n"
		}
		if err := os.WriteFile(filepath.Join(sets, name), []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sets
}
