package recordfmt

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzReadPSQ: ReadPSQ never panics, and a game it reads writes back to a
// PSQ that reads to the same moves.
func FuzzReadPSQ(f *testing.F) {
	for _, s := range []string{
		"Piskvork 20x20, 11:11, 0\r\n10,10,5\r\n11,11,7\r\na\r\nb\r\n-1\r\n",
		"Piskvork 5x5\n1,1\n2,2,3\n", "x 3x3\n1,1\n1,1\n", "Piskvork 999x1\n", "\n\n", "P 15x15\n0,0,0\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		g, err := ReadPSQ(strings.NewReader(in), 0)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WritePSQ(&b, g); err != nil {
			t.Fatalf("WritePSQ of a game read from %q: %v", in, err)
		}
		back, err := ReadPSQ(&b, g.Rules.K)
		if err != nil || !reflect.DeepEqual(back.Moves, g.Moves) {
			t.Fatalf("round trip of %q: %v, moves %v want %v", in, err, back, g.Moves)
		}
	})
}

// FuzzReadSGF: ReadSGF never panics, and the games it reads write back to
// an SGF that reads to the same moves.
func FuzzReadSGF(f *testing.F) {
	for _, s := range []string{
		"(;GM[4]SZ[15];B[hh];W[ii])", "(;GM[4]SZ[20:10]RU[mnk:10x20x5]PB[a\\]b];B[aa]C[3 ms](;W[bb])(;W[cc]))",
		"(;FF[4](;B[aa]))", "((;))", "(;C[\\", "(;GM[4]SZ[52];B[zZ])", "(;a[b]", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		games, err := ReadSGF(strings.NewReader(in), 0)
		if err != nil {
			return
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
