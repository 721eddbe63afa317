package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Flags after a file name are flags (issue 25): export --game after the
// file picks the game, where it was read as more file names and the
// export refused (or wrote nothing).
func TestExportFlagsAfterTheFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.sgf")
	code, stdout, stderr := runKinrow(t, "", "export", "--format", "sgf", recordsFile, "--game", "1", "--out", out)
	if code != 0 {
		t.Fatalf("export with flags after the file: status %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "(;"); n != 1 || !strings.Contains(string(data), "RU[mnk:15x15x5") {
		t.Errorf("--out holds %d games, want game 1 alone:\n%s", n, data)
	}
}

// kinrow view FILE --listen ADDR serves FILE on ADDR (it opened
// "--listen" as a records file and served on 8080).
func TestViewFlagsAfterTheFile(t *testing.T) {
	recs, err := filepath.Abs(recordsFile)
	if err != nil {
		t.Fatal(err)
	}
	base, stderr := startViewArgs(t, recs, "--listen", "127.0.0.1:0", "--allow-unsigned") // the test data predates signatures
	if strings.HasSuffix(base, ":8080") {
		t.Errorf("served on %s, not on a free port", base)
	}
	code, body := httpGet(t, base+"/api/games")
	if code != 200 || !strings.Contains(body, `"total":5`) || strings.Contains(body, "listen") {
		t.Errorf("GET /api/games: %d %s", code, body)
	}
	if strings.Contains(stderr.String(), "--listen") {
		t.Errorf("the log names --listen as a file:\n%s", stderr.String())
	}
}

// Every subcommand has GNU-style --help on stdout, and kinrow completion
// writes a shell's completion script.
func TestHelpAndCompletion(t *testing.T) {
	for _, sub := range []string{"serve", "match", "merge", "solve", "pbrain", "export", "import", "view", "ratings", "java-manifest", "doctor", "bots"} {
		code, stdout, stderr := runKinrow(t, "", sub, "--help")
		if code != 0 || !strings.Contains(stdout, "Usage:\n  kinrow "+sub) || stderr != "" {
			t.Errorf("kinrow %s --help: status %d\n%s%s", sub, code, stdout, stderr)
		}
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, stdout, _ := runKinrow(t, "", "completion", shell)
		if code != 0 || !strings.Contains(stdout, "kinrow") || len(stdout) < 1000 {
			t.Errorf("kinrow completion %s: status %d, %d bytes", shell, code, len(stdout))
		}
	}
	if code, _, stderr := runKinrow(t, "", "match", "--no-such-flag"); code != exitUsage || !strings.Contains(stderr, "kinrow match: unknown flag: --no-such-flag") {
		t.Errorf("an unknown flag: status %d, %q", code, stderr)
	}
}

// --bot-opt NAME#N:KEY=VALUE reaches the N-th copy of a bot alone (issue
// 25: alphabeta#2: was refused and alphabeta: set both). The copy given
// an option its bot does not have refuses the game, so the records say
// which side received it.
func TestBotOptForOneCopy(t *testing.T) {
	for _, tc := range []struct {
		opts    []string
		refused map[string]bool // by record name
	}{
		{[]string{"random:seed=7", "random#2:nosuch=1"}, map[string]bool{"random#2": true}},
		{[]string{"random#1:nosuch=1", "random#2:seed=3"}, map[string]bool{"random": true}},
		{[]string{"random#1:seed=1", "random#2:seed=2"}, map[string]bool{}},
	} {
		out := filepath.Join(t.TempDir(), "games.jsonl")
		args := []string{"match", "--rules", "tictactoe", "--bot", "random", "--bot", "random", "--games", "2", "--out", out}
		for _, o := range tc.opts {
			args = append(args, "--bot-opt", o)
		}
		if b, err := kinrowCmd(t, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", tc.opts, err, b)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != 2 {
			t.Fatalf("%v: %d records, want 2", tc.opts, len(lines))
		}
		for _, l := range lines {
			for _, who := range []string{"random", "random#2"} {
				refused := strings.Contains(l, "("+who+"): "+who+" refused the game") && strings.Contains(l, "unknown option nosuch")
				if refused != tc.refused[who] {
					t.Errorf("%v: %s refused the game: %v, want %v\n%s", tc.opts, who, refused, tc.refused[who], l)
				}
			}
		}
	}
}
