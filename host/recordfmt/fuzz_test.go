package recordfmt

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// addFiles adds the files matching pattern as seeds.
func addFiles(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
}

// FuzzReadPSQ: ReadPSQ never panics; a game it reads is a legal game
// (every move legal under its rules, none after the end), every move line
// of the input is one of its moves (none dropped, as a broken move line
// once made the rest vanish), and it writes back to a PSQ that reads to
// the same moves and players.
func FuzzReadPSQ(f *testing.F) {
	for _, s := range []string{
		"Piskvork 20x20, 11:11, 0\r\n10,10,5\r\n11,11,7\r\na\r\nb\r\n-1\r\n",
		"Piskvork 5x5\n1,1\n2,2,3\n", "x 3x3\n1,1\n1,1\n", "Piskvork 999x1\n", "\n\n", "P 15x15\n0,0,0\n",
		"Piskvorky 20x20, 11:11, 0\n10,10,5\n12,12,1e3\n11,11,7\nA.zip\nB.zip\n-1\n0,Freestyle20\n",
		"Piskvorky 3x3, 0:0, 0\n1,1\n2,1\n1,2\n2,2\n1,3\n3,3\nhomo-1\nhomo-2\n0\n",
	} {
		f.Add(s)
	}
	addFiles(f, "testdata/psq/*.psq")
	addFiles(f, "testdata/*.psq")
	f.Fuzz(func(t *testing.T, in string) {
		g, err := ReadPSQ(strings.NewReader(in), 0)
		if err != nil {
			if _, ok := err.(*LineError); !ok {
				t.Fatalf("ReadPSQ(%q) = %T %v, want a *LineError", in, err, err)
			}
			return
		}
		if err := legalGame(g); err != nil {
			t.Fatalf("ReadPSQ(%q) read an illegal game: %v", in, err)
		}
		moveLines, header := 0, true
		for _, l := range strings.Split(in, "\n") {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			if header {
				header = false
				continue
			}
			if _, _, _, ok := psqMove(l); ok {
				moveLines++
			}
		}
		if moveLines != len(g.Moves) {
			t.Fatalf("ReadPSQ(%q): %d moves of %d move lines", in, len(g.Moves), moveLines)
		}
		if g.Result != g.resultOfMoves() {
			t.Fatalf("ReadPSQ(%q): result %q, the moves give %q", in, g.Result, g.resultOfMoves())
		}
		var b bytes.Buffer
		if err := WritePSQ(&b, g); err != nil {
			t.Fatalf("WritePSQ of a game read from %q: %v", in, err)
		}
		back, err := ReadPSQ(&b, g.Rules.K)
		if err != nil || !reflect.DeepEqual(back.Moves, g.Moves) || back.Rules != g.Rules {
			t.Fatalf("round trip of %q: %v, moves %v want %v", in, err, back, g.Moves)
		}
		// kinrow writes names as valid UTF-8 on one line; other names are
		// compared as such.
		if (g.Players.X != "" || g.Players.O != "") && utf8.ValidString(g.Players.X+g.Players.O) && (!strings.Contains(back.Players.X, g.Players.X) || !strings.Contains(back.Players.O, g.Players.O)) {
			t.Fatalf("round trip of %q: players %+v, want %+v", in, back.Players, g.Players)
		}
	})
}

// FuzzReadSGF: ReadSGF never panics; the games it reads are legal games
// under the rules it read (RU's or five in a row when there is none), and
// write back to an SGF that reads to the same rules and moves.
func FuzzReadSGF(f *testing.F) {
	for _, s := range []string{
		"(;GM[4]SZ[15];B[hh];W[ii])", "(;GM[4]SZ[20:10]RU[mnk:10x20x5]PB[a\\]b];B[aa]C[3 ms](;W[bb])(;W[cc]))",
		"(;FF[4](;B[aa]))", "((;))", "(;C[\\", "(;GM[4]SZ[52];B[zZ])", "(;a[b]", "",
		"(;GM[4]SZ[15]RU[Swap2];B[hh])", "(;GM[4]SZ[15]RU[renju];B[hh];W[ii];B[hj])", "(;GM[4]SZ[3]RU[tictactoe];B[aa];W[bb];B[ab];W[cc];B[ac])",
		"(;GM[4]SZ[15]RU[Standard];B[aa])(;GM[4]SZ[9]RU[mnk:9x9x4:exact];B[aa];W[ii])",
	} {
		f.Add(s)
	}
	addFiles(f, "testdata/*.sgf")
	f.Fuzz(func(t *testing.T, in string) {
		games, err := ReadSGF(strings.NewReader(in), 0)
		if err != nil {
			if _, ok := err.(*LineError); !ok {
				t.Fatalf("ReadSGF(%q) = %T %v, want a *LineError", in, err, err)
			}
			return
		}
		for i, g := range games {
			if err := legalGame(g); err != nil {
				t.Fatalf("ReadSGF(%q) game %d: an illegal game: %v", in, i+1, err)
			}
		}
		var b bytes.Buffer
		if err := WriteSGF(&b, games...); err != nil {
			t.Fatalf("WriteSGF of games read from %q: %v", in, err)
		}
		back, err := ReadSGF(&b, 0)
		if err != nil || len(back) != len(games) {
			t.Fatalf("round trip of %q: %v (%d games, want %d)\n%s", in, err, len(back), len(games), b.String())
		}
		for i := range games {
			if !reflect.DeepEqual(back[i].Moves, games[i].Moves) || back[i].Rules != games[i].Rules {
				t.Fatalf("round trip of %q, game %d: %v %v, want %v %v", in, i+1, back[i].Rules, back[i].Moves, games[i].Rules, games[i].Moves)
			}
		}
	})
}
