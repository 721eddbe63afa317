package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/openings"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/match"
)

// kinrow book build writes a book whose every entry is the solver's score
// of its position, and leaves no journal behind; bad input exits 2.
func TestBookBuildE2E(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b.book")
	stdout, stderr, code := kinrowRun(t, "book", "build", "--rules", "connectx:4x5x4", "--plies", "5", "--jobs", "2", "--tt", "4", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "positions up to 5 plies") {
		t.Errorf("stdout %q: want the book's size", stdout)
	}
	if _, err := os.Stat(out + ".journal"); !os.IsNotExist(err) {
		t.Errorf("journal left behind: %v", err)
	}
	b, err := book.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	g := book.Geometry{Rows: 4, Cols: 5, K: 4}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for plies := 0; plies <= 5; plies++ {
		seqs, err := book.Frontier(g, plies)
		if err != nil {
			t.Fatal(err)
		}
		for i, seq := range seqs {
			if i%7 != 0 { // a sample
				continue
			}
			p := sv.NewPosition()
			cols := make([]int, len(seq))
			for j := range seq {
				cols[j] = int(seq[j])
				p.Play(cols[j])
			}
			want, err := sv.Solve(context.Background(), p, false)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := b.Score(cols); !ok || got != want {
				t.Errorf("%s: book %d (%v), solver %d", book.FormatCols(cols), got, ok, want)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
	// A strategy book of both sides: version 2, the first player's move
	// at the empty board.
	sout := filepath.Join(t.TempDir(), "s.book")
	stdout, stderr, code = kinrowRun(t, "book", "build", "--rules", "connectx:4x5x4", "--strategy", "both", "--plies", "4", "--o-plies", "3", "--jobs", "2", "--tt", "4", "--known", out, "--out", sout)
	if code != 0 || !strings.Contains(stdout, "strategy") {
		t.Fatalf("--strategy both: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	sb, err := book.ReadFile(sout)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := sb.Move(nil); !sb.Strategy || sb.Version() != 2 || !ok || e.Move < 0 {
		t.Errorf("strategy book: strategy %v version %d, the empty board's move %+v (%v)", sb.Strategy, sb.Version(), e, ok)
	}
	for _, args := range [][]string{
		{"book", "build", "--strategy", "z", "--out", out},
		{"book", "build", "--strategy", "x", "--known", out + ".none", "--out", out},
		{"book", "build", "--rules", "gomoku", "--out", out},
		{"book", "build", "--rules", "connectx:9x9x4", "--out", out},
		{"book", "build", "--plies", "-1", "--out", out},
		{"book", "build", "--plies", "2"},
		{"book", "build", "--nope"},
	} {
		if _, stderr, code := kinrowRun(t, args...); code != 2 || !strings.Contains(stderr, "kinrow book build:") {
			t.Errorf("%v: exit %d (%q), want 2 with a message", args, code, stderr)
		}
	}
}

// kinrow openings gives the same openings for the same seed, other ones
// for another seed, every Connect-4 opening's exact value within the
// bound, in a file kinrow match --openings reads.
func TestOpeningsE2E(t *testing.T) {
	args := []string{"openings", "--rules", "connect4", "--plies", "12", "--max-abs-score", "1", "-n", "4", "--seed", "9", "--quiet"}
	a, stderr, code := kinrowRun(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _, _ := kinrowRun(t, args...)
	if a != b {
		t.Fatalf("same seed, different openings:\n%s\n---\n%s", a, b)
	}
	other, _, _ := kinrowRun(t, append(args[:len(args)-3:len(args)-3], "--seed", "10", "--quiet")...)
	if other == a {
		t.Errorf("seeds 9 and 10 gave the same openings")
	}
	rules, _ := engine.ParseRules("connect4")
	ops, err := match.ParseOpenings(rules, strings.NewReader(a), "openings")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 4 {
		t.Fatalf("%d openings, want 4:\n%s", len(ops), a)
	}
	sv, err := solver.New(6, 7, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for _, moves := range ops {
		if len(moves) != 12 {
			t.Errorf("%v: %d plies, want 12", moves, len(moves))
		}
		p := sv.NewPosition()
		var cols []int
		for _, m := range moves {
			p.Play(int(m))
			cols = append(cols, int(m))
		}
		s, err := sv.Solve(context.Background(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		if s < -1 || s > 1 {
			t.Errorf("%s: score %d, want within 1", book.FormatCols(cols), s)
		}
		bd, _ := book.Play(book.Geometry{Rows: 6, Cols: 7, K: 4}, cols)
		if seen[bd.Fold()] {
			t.Errorf("%s: twice (or its mirror)", book.FormatCols(cols))
		}
		seen[bd.Fold()] = true
	}
	if !strings.Contains(a, openings.BySolver.String()) && !strings.Contains(a, openings.ByBook.String()) {
		t.Errorf("output does not say how the openings were proven:\n%s", a)
	}
	// Other rules are searched and say so.
	g, stderr, code := kinrowRun(t, "openings", "--rules", "mnk:7x7x4", "--plies", "3", "--max-abs-score", "1000", "-n", "2", "--depth", "3", "--quiet")
	if code != 0 || !strings.Contains(g, openings.BySearch.String()) {
		t.Errorf("mnk openings: exit %d %s\n%s", code, stderr, g)
	}
	if _, stderr, code := kinrowRun(t, "openings", "-n", "0"); code != 2 {
		t.Errorf("-n 0: exit %d (%s), want 2", code, stderr)
	}
}
