package openings

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/match"
)

func gen(t *testing.T, c Config) (string, []Opening) {
	t.Helper()
	ops, err := Generate(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, c, ops); err != nil {
		t.Fatal(err)
	}
	return b.String(), ops
}

// The same seed gives the same file; every Connect-X opening's exact
// value is within the bound, each one once (mirrors folded), and the file
// reads as kinrow match --openings.
func TestGenerate(t *testing.T) {
	for _, tc := range []struct {
		rules      string
		plies, max int
		how        How
	}{
		{"connectx:4x5x4", 4, 1, BySolver},
		{"connectx:5x6x4", 6, 0, BySolver},
		{"mnk:5x5x4", 3, 10000, BySearch},
	} {
		r, err := engine.ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		c := Config{Rules: r, Plies: tc.plies, MaxAbsScore: tc.max, N: 5, Seed: 42, Depth: 2, TTMiB: 4}
		a, ops := gen(t, c)
		b, _ := gen(t, c)
		if a != b {
			t.Errorf("%s: the same seed gave\n%s\nand\n%s", tc.rules, a, b)
		}
		parsed, err := match.ParseOpenings(r, strings.NewReader(a), "out")
		if err != nil || len(parsed) != len(ops) {
			t.Fatalf("%s: %d openings read back (%v), wrote %d", tc.rules, len(parsed), err, len(ops))
		}
		sym := r.Symmetries()
		seen := map[uint64]bool{}
		for _, o := range ops {
			pos := engine.NewPosition(r)
			if err := pos.PlayMoveList(o.Moves); err != nil || pos.Ply() != tc.plies || pos.Result() != engine.Open {
				t.Fatalf("%s: %v: %v, ply %d, %v", tc.rules, o.Moves, err, pos.Ply(), pos.Result())
			}
			h := sym.Hashes(pos)
			k, _ := h.Least()
			if seen[k] {
				t.Errorf("%s: %v twice (or a mirror image)", tc.rules, o.Moves)
			}
			seen[k] = true
			if o.How != tc.how && o.How != ByProof {
				t.Errorf("%s: %v valued %v, want %v", tc.rules, o.Moves, o.How, tc.how)
			}
			if o.Score < -tc.max || o.Score > tc.max {
				t.Errorf("%s: %v value %d past %d", tc.rules, o.Moves, o.Score, tc.max)
			}
			if r.Gravity() {
				sv, _ := solver.New(r.Rows, r.Cols, r.K, 4)
				p := sv.NewPosition()
				for _, m := range o.Moves {
					p.Play(int(m))
				}
				s, err := sv.Solve(context.Background(), p, false)
				if err != nil || s < -tc.max || s > tc.max {
					t.Errorf("%s: %v: the solver says %d (%v), past %d", tc.rules, o.Moves, s, err, tc.max)
				}
			}
		}
	}
}
