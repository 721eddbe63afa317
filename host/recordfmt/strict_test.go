package recordfmt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// Every PSQ of testdata/psq reads, or is refused on the line the table
// names, and testdata/psq/read.golden holds what each gave: the game, or
// the error naming the line, what it holds and what a PSQ may hold. A
// broken move line is never taken for a player's name (moves after it were
// dropped without a word before).
func TestReadPSQStrict(t *testing.T) {
	want := map[string]int{ // the line of the refusal; 0: read
		"gomocup.psq": 0, "piskvork-human.psq": 0, "no-names.psq": 0, "moves-only.psq": 0,
		"alphazero.psq": 0, "bom.psq": 0,
		"bad-time.psq":         3, // 12,12,1e3 then more moves
		"bad-last-move.psq":    4, // 12,12,1e3 before the names
		"text-among-moves.psq": 4, // the move after "h8"
		"three-names.psq":      6, // "h8" taken for a name, then two more
		"one-name.psq":         4,
		"spaces.psq":           3,
		"half-move.psq":        4, // "11" reads as a result code; the move after it is refused
		"text-after-code.psq":  6,
		"info-before-code.psq": 3,
		"negative.psq":         3,
		"long-time.psq":        3,
	}
	files, err := filepath.Glob("testdata/psq/*.psq")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/psq/*.psq: %v", err)
	}
	sort.Strings(files)
	var out strings.Builder
	for _, path := range files {
		name := filepath.Base(path)
		wantLine, ok := want[name]
		if !ok {
			t.Errorf("%s: not in the table", name)
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ReadPSQ(f, 0)
		f.Close()
		var le *LineError
		switch {
		case err == nil && wantLine != 0:
			t.Errorf("%s read (%d moves), want a refusal of line %d", name, len(g.Moves), wantLine)
		case err != nil && wantLine == 0:
			t.Errorf("%s: %v, want it read", name, err)
		case err != nil && (!errors.As(err, &le) || le.Line != wantLine):
			t.Errorf("%s: %v, want a *LineError on line %d", name, err, wantLine)
		case err != nil && !strings.Contains(err.Error(), "accepted:") && !strings.Contains(err.Error(), "board"):
			t.Errorf("%s: %v does not say what is accepted", name, err)
		}
		if err != nil {
			fmt.Fprintf(&out, "%s: %v\n", name, err)
			continue
		}
		if err := legalGame(g); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		fmt.Fprintf(&out, "%s: %s, %q vs %q, %s, ms %v, result %q\n", name, g.Rules, g.Players.X, g.Players.O,
			g.Rules.FormatMoveList(g.Moves), g.MS, g.Result)
	}
	golden(t, "psq/read.golden", []byte(out.String()))
}

// legalGame replays g: every move legal under its rules, none after the end,
// a time for each move.
func legalGame(g *Game) error {
	if err := g.Rules.Validate(); err != nil {
		return fmt.Errorf("rules %s: %v", g.Rules, err)
	}
	if g.Rules.Kind != engine.MNK {
		return fmt.Errorf("rules %s: not an m,n,k game", g.Rules)
	}
	if len(g.MS) != len(g.Moves) {
		return fmt.Errorf("%d times for %d moves", len(g.MS), len(g.Moves))
	}
	pos := engine.NewPosition(g.Rules)
	for i, m := range g.Moves {
		if err := pos.Apply(m); err != nil {
			return fmt.Errorf("move %d (%s): %v", i+1, g.Rules.FormatMove(m), err)
		}
	}
	return nil
}

// kinrow's own PSQ names read back as names, whatever the players are
// called: a name that reads as a move, a number or a broken move line is
// quoted.
func TestPSQNamesReadBack(t *testing.T) {
	for _, name := range []string{"12,12", "-1", "0,Freestyle", "12 12 100", "123", "alpha,beta", "random#2", " pad "} {
		g := &Game{Rules: mustRules(t, "mnk:15x15x5"), Moves: []engine.Move{112}, MS: []int64{3},
			Players: record.Players{X: name, O: "b"}}
		var b strings.Builder
		if err := WritePSQ(&b, g); err != nil {
			t.Fatal(err)
		}
		back, err := ReadPSQ(strings.NewReader(b.String()), 0)
		if err != nil || len(back.Moves) != 1 || back.Players.O != "b" || !strings.Contains(back.Players.X, strings.TrimSpace(name)) {
			t.Errorf("name %q: wrote\n%s\nread %+v, %v", name, b.String(), back, err)
		}
	}
}

func mustRules(t *testing.T, s string) engine.Rules {
	t.Helper()
	r, err := engine.ParseRules(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// An SGF rule kinrow cannot read is refused, naming the property and what
// is accepted, rather than five in a row assumed; the rules it can read
// are the rules of the game.
func TestReadSGFRules(t *testing.T) {
	for _, tc := range []struct {
		ru   string // RU's value; "-" for no RU
		sz   string
		k    int
		want string // the rules read, or a part of the error
		line int    // the error's line; 0 when read
	}{
		{"-", "15", 0, "mnk:15x15x5", 0},
		{"-", "15", 4, "mnk:15x15x4", 0},
		{"", "15", 0, "mnk:15x15x5", 0},
		{"mnk:15x15x5", "15", 0, "mnk:15x15x5", 0},
		{"mnk:15x15x4", "15", 0, "mnk:15x15x4", 0},
		{"mnk:15x15x5:renju", "15", 0, "mnk:15x15x5:renju", 0},
		{"MNK:15x15x5:Exact", "15", 4, "mnk:15x15x5:exact", 0},
		{"mnk:10x20x5", "20:10", 0, "mnk:10x20x5", 0},
		{"Freestyle", "20", 0, "mnk:20x20x5", 0},
		{"gomoku", "20", 0, "mnk:20x20x5", 0},
		{"Standard", "15", 0, "mnk:15x15x5:exact", 0},
		{"renju", "15", 0, "mnk:15x15x5:renju", 0},
		{"tictactoe", "3", 0, "mnk:3x3x3", 0},
		{"Swap2", "15", 0, "RU[Swap2]: kinrow cannot read this rule", 2},
		{"caro", "15", 0, "RU[caro]: kinrow cannot read", 2},
		{"mnk:15x15", "15", 0, "RU[mnk:15x15]: kinrow cannot read", 2},
		{"mnk:15x15x99", "15", 0, "RU[mnk:15x15x99]: kinrow cannot read", 2},
		{"connect4", "15", 0, "not an m,n,k game", 2},
		{"mnk:15x15x5", "19", 0, "RU[mnk:15x15x5] is a 15x15 board (columns x rows) but SZ gives 19x19", 2},
		{"tictactoe", "15", 0, "is a 3x3 board", 2},
		{"renju", "3", 0, "RU[renju] on a 3x3 board", 2},
	} {
		in := "(\n;GM[4]FF[4]SZ[" + tc.sz + "]"
		if tc.ru != "-" {
			in += "RU[" + tc.ru + "]"
		}
		in += ";B[bb];W[cc])"
		games, err := ReadSGF(strings.NewReader(in), tc.k)
		if tc.line == 0 {
			if err != nil || games[0].Rules.String() != tc.want {
				t.Errorf("RU[%s] SZ[%s] k %d: %v, want %s", tc.ru, tc.sz, tc.k, err, tc.want)
			}
			continue
		}
		var le *LineError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &le) || le.Line != tc.line {
			t.Errorf("RU[%s] SZ[%s]: %v, want an error on line %d with %q", tc.ru, tc.sz, err, tc.line, tc.want)
		}
		if err != nil && strings.Contains(tc.want, "cannot read") && !strings.Contains(err.Error(), "accepted are") {
			t.Errorf("RU[%s]: %v does not say what is accepted", tc.ru, err)
		}
	}
	// Two RU values are one too many.
	if _, err := ReadSGF(strings.NewReader("(;GM[4]SZ[15]RU[gomoku][renju];B[aa])"), 0); err == nil || !strings.Contains(err.Error(), "RU given 2 times") {
		t.Errorf("RU with two values: %v", err)
	}
}

// resultOfMoves is the result the moves of g give when replayed.
func (g *Game) resultOfMoves() string {
	pos, err := g.Position(-1)
	if err != nil {
		return "illegal"
	}
	return pos.Result().String()
}
