package recordfmt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine"
	goldenfile "github.com/kinrow/kinrow/internal/golden"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// loadGames reads testdata/games.jsonl as Games.
func loadGames(t *testing.T) []*Game {
	t.Helper()
	f, err := os.Open("testdata/games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, warns, err := LoadRecords(f, "games.jsonl")
	if err != nil || len(warns) > 0 {
		t.Fatalf("LoadRecords: %v %v", err, warns)
	}
	var games []*Game
	for _, rec := range recs {
		g, err := FromRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	return games
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

func TestGoldenFiles(t *testing.T) {
	games := loadGames(t)
	gomoku, c4, ttt, wide := games[0], games[1], games[2], games[3]
	var psq bytes.Buffer
	if err := WritePSQ(&psq, gomoku); err != nil {
		t.Fatal(err)
	}
	golden(t, "gomoku.psq", psq.Bytes())
	var sgf bytes.Buffer
	if err := WriteSGF(&sgf, gomoku, ttt); err != nil {
		t.Fatal(err)
	}
	golden(t, "games.sgf", sgf.Bytes())
	var text bytes.Buffer
	for i, g := range []*Game{c4, wide, gomoku} {
		if err := WriteText(&text, "game "+string(rune('1'+i)), g); err != nil {
			t.Fatal(err)
		}
	}
	golden(t, "games.txt", text.Bytes())
	for name, g := range map[string]*Game{"connect4.svg": c4, "gomoku.svg": gomoku} {
		svg, err := g.SVG(-1)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, svg)
	}
}

func TestPSQRoundTrip(t *testing.T) {
	for i, g := range loadGames(t) {
		var b bytes.Buffer
		err := WritePSQ(&b, g)
		if g.Rules.Kind == engine.ConnectX {
			if err == nil || !strings.Contains(err.Error(), "m,n,k") {
				t.Errorf("game %d: WritePSQ of %s = %v, want a refusal naming m,n,k", i+1, g.Rules, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadPSQ(bytes.NewReader(b.Bytes()), g.Rules.K)
		if err != nil {
			t.Fatalf("game %d: ReadPSQ: %v\n%s", i+1, err, b.String())
		}
		if back.Rules != g.Rules || !reflect.DeepEqual(back.Moves, g.Moves) || !reflect.DeepEqual(back.MS, g.MS) || back.Players != g.Players {
			t.Errorf("game %d: PSQ round trip:\n got %+v\nwant %+v", i+1, back, g)
		}
	}
}

func TestSGFRoundTrip(t *testing.T) {
	var mnk []*Game
	for _, g := range loadGames(t) {
		if g.Rules.Kind == engine.MNK {
			mnk = append(mnk, g)
		}
	}
	var b bytes.Buffer
	if err := WriteSGF(&b, mnk...); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSGF(bytes.NewReader(b.Bytes()), 0)
	if err != nil {
		t.Fatalf("ReadSGF: %v\n%s", err, b.String())
	}
	if len(back) != len(mnk) {
		t.Fatalf("ReadSGF: %d games, want %d", len(back), len(mnk))
	}
	for i, g := range mnk {
		got := back[i]
		if got.Rules != g.Rules || !reflect.DeepEqual(got.Moves, g.Moves) || !reflect.DeepEqual(got.MS, g.MS) ||
			got.Players != g.Players || got.Result != g.Result || got.Reason != g.Reason || got.Detail != g.Detail {
			t.Errorf("game %d: SGF round trip:\n got %+v\nwant %+v", i+1, got, g)
		}
	}
}

// A PSQ written by kinrow, its move lines turned into a Gomocup BOARD block
// (0-based X,Y; field 1 for the side to move next, 2 for the other), reads
// back through protocol/gomocup as the record's moves.
func TestPSQAsGomocupBoard(t *testing.T) {
	g := loadGames(t)[0]
	var psq bytes.Buffer
	if err := WritePSQ(&psq, g); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(psq.String(), "\r\n", "\n")), "\n")
	moveLines := lines[1 : 1+len(g.Moves)]
	var board strings.Builder
	board.WriteString("BOARD\r\n")
	for i, l := range moveLines {
		x, y, _, ok := psqMove(l)
		if !ok {
			t.Fatalf("PSQ line %q is not a move", l)
		}
		field := 2 // the opponent of the side to move after the last move
		if (len(moveLines)-1-i)%2 == 1 {
			field = 1
		}
		board.WriteString(gomocup.Stone{Point: gomocup.Point{X: x - 1, Y: y - 1}, Field: gomocup.Field(field)}.String() + "\r\n")
	}
	board.WriteString("DONE\r\n")
	cmd, err := gomocup.ReadCommand(strings.NewReader(board.String()))
	if err != nil {
		t.Fatalf("gomocup: %v\n%s", err, board.String())
	}
	if cmd.Kind != gomocup.CmdBoard || len(cmd.Stones) != len(g.Moves) {
		t.Fatalf("gomocup read %+v, want a BOARD of %d stones", cmd, len(g.Moves))
	}
	for i, s := range cmd.Stones {
		m, err := gomocup.ToMove(g.Rules, s.Point)
		if err != nil || m != g.Moves[i] {
			t.Errorf("stone %d %s = %s %v, want %s", i+1, s, g.Rules.FormatMove(m), err, g.Rules.FormatMove(g.Moves[i]))
		}
	}
}

func TestReadPSQErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"hello\n1,1,0\n", "no board size"},
		{"Piskvork 20x20, 11:11, 0\n21,1,0\n", "off the 20x20 board"},
		{"Piskvork 20x20, 11:11, 0\n1,1,0\n1,1,0\n", "occupied"},
		{"Piskvork 0x20, 11:11, 0\n", "sides from 1"},
	} {
		_, err := ReadPSQ(strings.NewReader(tc.in), 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadPSQ(%q) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func TestReadSGF(t *testing.T) {
	// Variations: the main line is the first; escapes; FF[3] identifiers.
	in := `(;GM[4]SZ[15]PB[a\]b]PW[c];B[hh];W[ii](;B[jj]C[5 ms];W[kk])(;B[aa]))`
	games, err := ReadSGF(strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	r := g.Rules
	var got []string
	for _, m := range g.Moves {
		got = append(got, r.FormatMove(m))
	}
	if want := []string{"h8", "j7", "k6", "l5"}; !reflect.DeepEqual(got, want) || g.Players.X != "a]b" || g.MS[2] != 5 {
		t.Errorf("ReadSGF main line = %v %+v, want %v, PB a]b, time 5 ms on move 3", got, g.Players, want)
	}
	for _, tc := range []struct{ in, want string }{
		{"hello", "not an SGF"},
		{"(;GM[1]SZ[19];B[aa])", "GM[4]"},
		{"(;GM[4];W[aa])", "moves first"},
		{"(;GM[4]AB[aa])", "setup stones"},
		{"(;GM[4];B[])", "pass"},
		{"(;GM[4]SZ[15];B[zz])", "off the"},
		{"(;GM[4];B[aa]", "missing ')'"},
		{"(;GM[4]C[abc", "closing ']'"},
		{strings.Repeat("(", 20000), "nested"},
	} {
		_, err := ReadSGF(strings.NewReader(tc.in), 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadSGF(%.40q) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func TestLoadRecords(t *testing.T) {
	data, err := os.ReadFile("testdata/games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// A torn last line is left out with a warning.
	torn := append(append([]byte(nil), data...), data[:40]...)
	recs, warns, err := LoadRecords(bytes.NewReader(torn), "torn.jsonl")
	if err != nil || len(recs) != 5 || len(warns) != 1 || !strings.Contains(warns[0], "torn.jsonl:6: torn last line") {
		t.Errorf("torn file: %d records, %v, %v; want 5 and a warning naming line 6", len(recs), warns, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"Piskvork 20x20, 11:11, 0\n1,1,0\n", "not kinrow game records"},
		{`{"name":"x"}` + "\n", `no "rules"`},
		{"", "no game records"},
		{string(data[:bytes.IndexByte(data, '\n')+1]) + "{bad\n" + string(data), "x.jsonl:2"},
		// A bad last line without its newline is torn only when it is the
		// start of a record line cut short (record.ReadLines): garbage, or
		// a whole record that does not parse, is an error, no longer a
		// warning.
		{string(data) + "notes", "x.jsonl:6: not kinrow game records"},
		{string(data) + `{"rules":"connect4","moves":[{"move":"9"}]}`, "x.jsonl:6: game record move 1"},
		{`{"rules":"connect4","moves":[{"move":"9"}]}` + "\n", "x.jsonl:1: game record move 1"},
	} {
		_, _, err := LoadRecords(strings.NewReader(tc.in), "x.jsonl")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadRecords(%.40q) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
	_, _, err = LoadRecords(strings.NewReader("Piskvork\n"), "x")
	if !errors.Is(err, ErrNotRecords) {
		t.Errorf("LoadRecords of a PSQ: %v, want ErrNotRecords", err)
	}
}

func TestWinningLineAndSVG(t *testing.T) {
	games := loadGames(t)
	for _, tc := range []struct {
		game  int
		ply   int
		cells string // data-cells of the winning line; "" for none
		last  string
	}{
		{0, -1, "h8 h9 h10 h11 h12", "h12"},
		{0, 8, "", "d1"},
		{1, -1, "4/1 4/2 4/3 4/4", "4/4"},
		{2, -1, "", "c3"},
	} {
		g := games[tc.game]
		svg, err := g.SVG(tc.ply)
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		ply := tc.ply
		if ply < 0 {
			ply = len(g.Moves)
		}
		if n := strings.Count(s, `class="kr-stone `); n != ply {
			t.Errorf("game %d ply %d: %d stones, want %d", tc.game+1, tc.ply, n, ply)
		}
		if tc.cells == "" && strings.Contains(s, "kr-win") && strings.Contains(s, "<line") {
			t.Errorf("game %d ply %d: a winning line drawn on a game not won", tc.game+1, tc.ply)
		}
		if tc.cells != "" && !strings.Contains(s, `data-cells="`+tc.cells+`"`) {
			t.Errorf("game %d: no winning line %q in\n%s", tc.game+1, tc.cells, s)
		}
		if !strings.Contains(s, `data-cell="`+tc.last+`" data-ply="`+strconv.Itoa(ply)+`"`) {
			t.Errorf("game %d ply %d: last stone is not %s", tc.game+1, tc.ply, tc.last)
		}
	}
	// The largest boards draw (128x128 m,n,k; 64x58 Connect-X).
	for _, rs := range []string{"mnk:128x128x5", "connectx:64x58x12", "mnk:70x70x5"} {
		r, _ := engine.ParseRules(rs)
		g := &Game{Rules: r, Moves: []engine.Move{0}}
		if _, err := g.SVG(-1); err != nil {
			t.Errorf("%s: %v", rs, err)
		}
	}
}
