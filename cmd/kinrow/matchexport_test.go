package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// kinrow match --out-format writes every finished game as it ends in the
// formats other tools open, beside --out: the move strings, an SGF
// collection and a PSQ file a game, each holding the games of the records;
// kinrow import reads the SGF and PSQ files back to the same moves. Files
// that already hold games are refused without --resume, as --out is, and
// PSQ and SGF are refused for Connect-X.
func TestMatchOutFormat(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "games.jsonl")
	run := func(wantCode int, args ...string) string {
		t.Helper()
		cmd := kinrowCmd(t, args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != wantCode {
			t.Fatalf("kinrow %v: exit %d (%v), want %d\n%s", args, code, err, wantCode, stderr.String())
		}
		return stderr.String()
	}
	run(0, "match", "--rules", "tictactoe", "--bot", "random", "--bot", "mics", "--games", "4",
		"--movetime", "50ms", "--grace", "1s", "--out", out, "--out-format", "text,sgf,psq")

	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	var recs []record.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r record.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	f.Close()
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	text, err := os.ReadFile(filepath.Join(dir, "games.txt"))
	if err != nil {
		t.Fatal(err)
	}
	psqs, _ := filepath.Glob(filepath.Join(dir, "games.psq", "*.psq"))
	if len(psqs) != 4 {
		t.Errorf("%d PSQ files, want 4: %v", len(psqs), psqs)
	}
	for _, r := range recs {
		var moves []string
		for _, m := range r.Moves {
			moves = append(moves, m.Move)
		}
		line := strings.Join(moves, " ")
		if !strings.Contains(string(text), "\n"+line+"\n") {
			t.Errorf("games.txt lacks round %d game %d: %q\n%s", r.Round, r.Game, line, text)
		}
		// kinrow import gives a game that ended on the board back less
		// its last move (an opening leaves the game open); one that ended
		// otherwise (a forfeit on a loaded machine) whole.
		for _, file := range []string{filepath.Join(dir, "games.psq", "round1-game"+strconv.Itoa(r.Game)+".psq")} {
			cmd := kinrowCmd(t, "import", "--rules", "tictactoe", file)
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("kinrow import %s: %v", file, err)
			}
			want := line
			if r.Reason == record.ReasonWin || r.Reason == record.ReasonDraw {
				want = strings.Join(moves[:len(moves)-1], " ")
			}
			if !strings.Contains(string(got), "\n"+want+"\n") {
				t.Errorf("import of %s:\n%s\nwant the line %q", file, got, want)
			}
		}
	}
	sgf := filepath.Join(dir, "games.sgf")
	got, err := kinrowCmd(t, "import", "--rules", "tictactoe", sgf).Output()
	if err != nil {
		t.Fatalf("kinrow import %s: %v", sgf, err)
	}
	if n := strings.Count(string(got), "#"); n != 4 {
		t.Errorf("the SGF gave %d games back, want 4:\n%s", n, got)
	}

	// The same files again: refused unless --resume, and left as they were.
	out2 := filepath.Join(dir, "games2.jsonl")
	os.WriteFile(filepath.Join(dir, "games2.sgf"), []byte("(;GM[4])"), 0o644)
	msg := run(2, "match", "--rules", "tictactoe", "--bot", "random", "--bot", "mics", "--games", "2",
		"--movetime", "50ms", "--out", out2, "--out-format", "sgf")
	if !strings.Contains(msg, "--resume") {
		t.Errorf("refusal without naming --resume: %s", msg)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "games2.sgf")); string(b) != "(;GM[4])" {
		t.Errorf("the refused file was changed: %q", b)
	}
	msg = run(2, "match", "--rules", "connect4", "--bot", "random", "--bot", "mics", "--games", "2",
		"--out", filepath.Join(dir, "c4.jsonl"), "--out-format", "psq")
	if !strings.Contains(msg, "m,n,k games only") {
		t.Errorf("PSQ of Connect-4: %s", msg)
	}
	msg = run(2, "match", "--rules", "tictactoe", "--bot", "random", "--bot", "mics", "--out-format", "pgn",
		"--out", filepath.Join(dir, "x.jsonl"))
	if !strings.Contains(msg, "accepted are text, sgf, psq") {
		t.Errorf("unknown format: %s", msg)
	}
}
