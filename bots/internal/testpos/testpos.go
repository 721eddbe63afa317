package testpos

import (
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// Of returns the position after moves (a list ParseMoveList reads; empty
// for the empty board) under the rules named rules; it fails tb on an
// unknown rule, a move it cannot read or a move the rules refuse.
func Of(tb testing.TB, rules, moves string) *engine.Position {
	tb.Helper()
	r, err := engine.ParseRules(rules)
	if err != nil {
		tb.Fatal(err)
	}
	p := engine.NewPosition(r)
	ms, err := r.ParseMoveList(moves)
	if err != nil {
		tb.Fatalf("%s moves %q: %v", rules, moves, err)
	}
	if err := p.PlayMoveList(ms); err != nil {
		tb.Fatalf("%s moves %q: %v", rules, moves, err)
	}
	return p
}
