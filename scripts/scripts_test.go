// Package scripts holds the user-facing scripts; its tests run them against
// freshly built binaries.
package scripts

import (
	"fmt"
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
	dir, err := os.MkdirTemp("", "kinrow-scripts-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := 1
	if err := testbuild.Build(dir, "crash"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
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
}
