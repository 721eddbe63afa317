package vcf

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/bots/gomoku/board"
	"github.com/kinrow/kinrow/bots/pndb/dbsearch"
	"github.com/kinrow/kinrow/engine"
)

// load returns the engine position and a board of moves (a move list).
func load(t *testing.T, rs, moves string) (*engine.Position, *board.Board) {
	t.Helper()
	r, err := engine.ParseRules(rs)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := r.ParseMoveList(moves)
	if err != nil {
		t.Fatal(err)
	}
	pos := engine.NewPosition(r)
	if err := pos.PlayMoveList(ms); err != nil {
		t.Fatal(err)
	}
	b := board.New(r)
	for _, m := range ms {
		b.Play(b.Index(m))
	}
	return pos, b
}

// vcfPuzzles are positions where the side to move wins by continuous
// fours in three to five fours (none in two): each was found by random
// play and proved by refVCF, the exhaustive VCF on the engine's own board
// (and, for freestyle, by pndb's dbsearch); TestGeneratePuzzles prints more.
var vcfPuzzles = []struct{ rules, moves string }{
	{"mnk:15x15x5", "h8 k9 h6 j11 l11 m7 g5 o5 p3 j4 o6 n12 n7 k3 n14 m3 l2 m2 e4 o3 n9 j2 f7"},
	{"mnk:15x15x5", "h8 j7 j10 f8 k11 l11 j8 h9 j9 g5 d8 f9 f10 m12 k10 d6 g9 n11 j3 j12"},
	{"mnk:15x15x5", "h8 g7 e8 f6 d8 c6 h10 g6 h6 f7 g10 e5 c7 a4 b7 d3 j11"},
	{"mnk:15x15x5", "h8 f9 j10 f7 k12 l9 g12 n10 l12 l10 k10 p10 n9 p7"},
	{"mnk:15x15x5", "h8 h9 h10 k11 h13 g9 m11 f11 n12 g14 o14 g13 p10 o13 m10 o11 g8 e15 j12 h12 l11 j6 n15 j5 d9 d15 l6 l13 b13"},
	{"mnk:15x15x5", "h8 j10 k9 l10 k10 h6 m12 k11 o12 f8 g4 l12 f2 f6 p10 d2 o11 g12 f7 e9 g8 n8 f9 k8"},
	{"gomoku-standard", "h8 f8 e10 g9 e6 k9 g10 l7 g4 f9 e8 k6 c4 h2 j7 d12 b13 d15 b5 n5 d13 c6 c5 g2"},
	{"gomoku-standard", "h8 h6 h9 g8 g11 h11 f5 d3 k9 g7 e7 g10 f7 c4 c7 m9 j9 f12 d4 o7 e9 o6"},
	{"gomoku-standard", "h8 k10 g6 f6 k11 m9 e4 m10 f7 o9 h6 n8 c5 p6 o5 k6 e7 m6 b5 j7 p4 n6 a6 j9 j13 l9 c2 b2"},
	{"gomoku-standard", "h8 g8 e9 j7 g5 d9 e11 h6 b7 k8 g6 e10 f10 m9 d6 e13 g7 e6 l11 d5"},
	{"gomoku-standard", "h8 g10 g8 j8 f7 f6 j6 e9 g5 l5 l10 e8 d11 n3 g7 e7 m10 j7 e6 c10 d9 b12 e13"},
	{"gomoku-standard", "h8 k7 k9 m7 j8 j5 h5 f5 o8 e3 d2 c1 f1 p9 g3 g7 p6 p11 n12 f7 d9 b7 k3 d3 n4 b9 n7 e5"},
	{"renju", "h8 f9 d10 j9 b9 g7 e7 c9 k10 b7 j7 e5 g5 e6 j10 g11 l9 j8 f7 k7 e11 b6 m12 h5"},
	{"renju", "h8 g10 e8 k9 l9 e11 e12 j6 l5 g4 d11 j11 n11 k5 d12 j13 b9 h10 f6 f5 e10 e2 d13"},
	{"renju", "h8 g6 j9 g8 j11 j6 l6 f5 j5 h11 h12 e8 m5 k12 j13 n3"},
	{"renju", "h8 f6 g7 k6 l7 j9 e5 d5 h5 f10 b6 b5 d8 g12 d9 n6 c6 h3 p7 p6 g5 g4 d6 o4 c5 m7"},
	{"renju", "h8 g6 j10 g8 h9 j6 k8 m9 f6 l4 h5 k5 h3 d5 g11 g2 m11 l10 g5 n9 m10 g3 e6 n3"},
	{"renju", "h8 g10 k8 h11 f6 h13 e4 m10 h12 e12 m8 o8 g2 f10 k12 j1 m7 o5 e2 d4 o12 e14 k11 k7 d9 g8"},
}

// TestVCFPuzzles: the VCF is found, its first move is legal and wins by
// the exhaustive reference, and the reference agrees the puzzle is a win
// that takes more than two fours.
func TestVCFPuzzles(t *testing.T) {
	for _, tc := range vcfPuzzles {
		t.Run(tc.rules+"/"+tc.moves[len(tc.moves)-3:], func(t *testing.T) {
			pos, b := load(t, tc.rules, tc.moves)
			a := pos.ToMove()
			if refVCF(pos, a, 2) || !refVCF(pos, a, 5) {
				t.Fatalf("not a 3..5-four VCF by the reference:\n%s", pos.Diagram())
			}
			s := New(b)
			p := s.VCF(context.Background(), a, 5, 1<<20)
			if p < 0 {
				t.Fatalf("no VCF found for %v:\n%s", a, pos.Diagram())
			}
			m := b.Move(p)
			if !refTry(pos, a, int(m), 5) {
				t.Fatalf("first move %s does not win by the reference:\n%s", pos.Rules().FormatMove(m), pos.Diagram())
			}
			if b.Ply() != pos.Ply() {
				t.Fatalf("board left with %d stones, want %d", b.Ply(), pos.Ply())
			}
		})
	}
}

// TestVCFNoFalseWins: on random positions of every rule, each VCF the
// search claims is confirmed by the exhaustive reference (its first move
// wins within the same number of fours), and most reference wins are found.
func TestVCFNoFalseWins(t *testing.T) {
	for _, rs := range []string{"mnk:15x15x5", "gomoku-standard", "renju", "mnk:9x9x5"} {
		t.Run(rs, func(t *testing.T) {
			r, _ := engine.ParseRules(rs)
			rng := rand.New(rand.NewPCG(11, uint64(len(rs))))
			claimed, refWon, missed := 0, 0, 0
			for i := 0; i < 150; i++ {
				pos := randomPosition(r, rng, 10+rng.IntN(30))
				if pos.Result() != engine.Open {
					continue
				}
				a := pos.ToMove()
				b := board.New(r)
				for _, m := range pos.Moves(nil) {
					b.Play(b.Index(m))
				}
				s := New(b)
				p := s.VCF(context.Background(), a, 4, 1<<20)
				ref := refVCF(pos, a, 4)
				if ref {
					refWon++
				}
				if p >= 0 {
					claimed++
					if !refTry(pos, a, int(b.Move(p)), 4) {
						t.Fatalf("false VCF: %s for %v does not win by the reference\n%s", r.FormatMove(b.Move(p)), a, pos.Diagram())
					}
				} else if ref {
					missed++
				}
			}
			t.Logf("%s: %d claimed (all confirmed), %d reference wins, %d missed", rs, claimed, refWon, missed)
			if claimed == 0 {
				t.Fatalf("no VCF among the random positions: the test proves nothing")
			}
			if missed*5 > refWon {
				t.Fatalf("missed %d of %d reference wins", missed, refWon)
			}
		})
	}
}

// readVCTPuzzles reads testdata/vct-puzzles.txt: lines "rules | moves |
// first", # comments and blank lines skipped.
func readVCTPuzzles(t *testing.T) []struct{ rules, moves, first string } {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "vct-puzzles.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []struct{ rules, moves, first string }
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("vct-puzzles.txt:%d: %d fields, want 3 (rules | moves | first)", n+1, len(f))
		}
		out = append(out, struct{ rules, moves, first string }{strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), strings.TrimSpace(f[2])})
	}
	return out
}

// TestVCTPuzzles: on every VCT puzzle (no VCF within six fours by the
// exhaustive reference, a threat win by pndb's dbsearch, whose first move
// is the table's) the VCT finds a legal first move, and that move is
// checked independently of package vcf: every legal reply of the
// defender's leaves the attacker a win by dbsearch or by the reference VCF
// (a reply that makes a four is blocked and every reply checked again).
func TestVCTPuzzles(t *testing.T) {
	puzzles := readVCTPuzzles(t)
	if len(puzzles) < 10 {
		t.Fatalf("%d VCT puzzles, want at least 10", len(puzzles))
	}
	for _, tc := range puzzles {
		t.Run(tc.moves[len(tc.moves)-3:], func(t *testing.T) {
			pos, b := load(t, tc.rules, tc.moves)
			a := pos.ToMove()
			r := pos.Rules()
			db, err := dbsearch.New(r, dbsearch.Options{MaxNodes: 50000, MaxSequences: 64})
			if err != nil {
				t.Fatal(err)
			}
			res, _ := db.Search(context.Background(), pos, a)
			if !res.Win || refVCF(pos, a, 6) {
				t.Fatalf("not a VCT-only win (db %v):\n%s", res.Win, pos.Diagram())
			}
			if got := r.FormatMove(engine.Move(res.First)); got != tc.first {
				t.Fatalf("dbsearch's first move %s, the table says %s", got, tc.first)
			}
			s := New(b)
			p := s.VCT(context.Background(), a, 6, 1<<21)
			if p < 0 || !pos.Legal(b.Move(p)) {
				t.Fatalf("no VCT found:\n%s", pos.Diagram())
			}
			if b.Ply() != pos.Ply() {
				t.Fatalf("board left with %d stones, want %d", b.Ply(), pos.Ply())
			}
			m := b.Move(p)
			pos.Play(m)
			defer pos.Undo()
			// The check's dbsearch gets a larger budget: a defence may
			// push the win several threats further.
			deep, err := dbsearch.New(r, dbsearch.Options{MaxNodes: 1 << 20, MaxSequences: 4096})
			if err != nil {
				t.Fatal(err)
			}
			if !everyDefenceLoses(pos, a, deep, 2) {
				t.Fatalf("VCT's first move %s: a defence leaves the attacker no proven win\n%s", r.FormatMove(m), pos.Diagram())
			}
		})
	}
}

// everyDefenceLoses reports whether, with the defender to move on pos,
// every legal reply leaves attacker a a proven win (attackerWins); forced
// blocks of the defender's fours are followed up to forced more times.
func everyDefenceLoses(pos *engine.Position, a engine.Color, db *dbsearch.Searcher, forced int) bool {
	for _, d := range pos.LegalMoves(nil) {
		pos.Play(d)
		ok := pos.Result() == engine.Open && attackerWins(pos, a, db, forced)
		pos.Undo()
		if !ok {
			return false
		}
	}
	return true
}

// attackerWins reports whether a, to move on pos, wins: a five to take,
// or, after the block of the defender's one four, every defence losing
// again; else dbsearch or the reference VCF proves it.
func attackerWins(pos *engine.Position, a engine.Color, db *dbsearch.Searcher, forced int) bool {
	if len(refWins(pos, a, nil)) > 0 {
		return true
	}
	switch dw := refWins(pos, a.Other(), nil); {
	case len(dw) > 1:
		return false
	case len(dw) == 1:
		if forced == 0 || !pos.Legal(engine.Move(dw[0])) {
			return false
		}
		pos.Play(engine.Move(dw[0]))
		defer pos.Undo()
		return everyDefenceLoses(pos, a, db, forced-1)
	}
	res, _ := db.Search(context.Background(), pos, a)
	return res.Win || refVCF(pos, a, 4)
}
