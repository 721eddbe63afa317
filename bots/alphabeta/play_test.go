package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// The book option: a file of the game's board is played, none plays
// none, and a missing file, a damaged one or one of another board is
// refused with the option named.
func TestBookOption(t *testing.T) {
	dir := t.TempDir()
	b, err := book.Build(context.Background(), book.Options{Geometry: book.Geometry{Rows: 4, Cols: 5, K: 4}, Plies: 3, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "b.book")
	if err := b.WriteFile(good); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.book")
	if err := os.WriteFile(bad, []byte("KRBOOK1\nnot a book at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rules, book string
		err         string // "" when the game starts
		hasBook     bool
	}{
		{"connectx:4x5x4", good, "", true},
		{"connectx:4x5x4", "none", "", false},
		{"connectx:4x5x4", "default", "", false}, // nothing shipped for 4x5
		{"connect4", "default", "", true},        // the shipped 6x7 book
		{"connect4", good, "a book of 4x5x4", false},
		{"connectx:4x5x4", filepath.Join(dir, "missing"), "no such file", false},
		{"connectx:4x5x4", bad, "not a kinrow book", false},
	}
	for _, tc := range tests {
		a := newAlphabeta()
		r, _ := engine.ParseRules(tc.rules)
		values, err := sdk.OptionSet(a.Info().Options).Parse(map[string]string{"book": tc.book})
		if err != nil {
			t.Fatal(err)
		}
		p, err := a.NewGame(context.Background(), sdk.Game{Rules: r, Values: values})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "book=") {
				t.Errorf("%s book=%s: %v, want an error with %q naming the option", tc.rules, tc.book, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s book=%s: %v", tc.rules, tc.book, err)
		}
		if got := p.(*player).book != nil; got != tc.hasBook {
			t.Errorf("%s book=%s: has a book %v, want %v", tc.rules, tc.book, got, tc.hasBook)
		}
	}
}

// With the shipped book the empty 6x7 board is answered from the book:
// column 4, the only winning first move, with its proven score.
func TestShippedBookOpens(t *testing.T) {
	a := newAlphabeta()
	p := newGame(t, a, "connect4", nil)
	if p.book == nil || p.book.Plies < 1 {
		t.Skip("no 6x7 book of a ply or more shipped")
	}
	r, _ := engine.ParseRules("connect4")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var last botapi.Progress
	m, err := p.GenMove(ctx, engine.NewPosition(r), func(pr botapi.Progress) { last = pr })
	if err != nil || m != 3 || last.Score != 1 {
		t.Fatalf("move %v (score %d), %v: want column 4, score 1", m+1, last.Score, err)
	}
}
