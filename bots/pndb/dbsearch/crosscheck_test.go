package dbsearch

import (
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// TestBoardWinnerAgrees: the search board's complete windows name the same
// winner as the engine after every move of pseudo-random games of the
// variants dbsearch plays (freestyle: bots/pndb declares nothing else); the
// other boards are held to the engine by bots/crosscheck.
func TestBoardWinnerAgrees(t *testing.T) {
	seed := uint64(9)
	for _, rs := range []string{"connect4", "connectx:5x5x4", "connectx:9x9x5", "tictactoe", "mnk:6x6x4", "gomoku", "mnk:9x9x5"} {
		r, err := engine.ParseRules(rs)
		if err != nil {
			t.Fatal(err)
		}
		b := newBoard(r)
		for game := 0; game < 60; game++ {
			pos := engine.NewPosition(r)
			var legal []engine.Move
			for pos.Result() == engine.Open {
				legal = pos.LegalMoves(legal[:0])
				seed = seed*6364136223846793005 + 1442695040888963407
				pos.Play(legal[(seed>>33)%uint64(len(legal))])
				b.load(pos)
				got := engine.Empty
				switch {
				case b.full[0] > 0:
					got = engine.X
				case b.full[1] > 0:
					got = engine.O
				}
				if got != pos.Result().Winner() {
					t.Fatalf("%s %s: the search board says %v won, the engine %v", rs, r.FormatMoveList(pos.Moves(nil)), got, pos.Result().Winner())
				}
			}
		}
	}
}

// TestRefusesOtherLineRules: dbsearch proves freestyle only.
func TestRefusesOtherLineRules(t *testing.T) {
	for _, rs := range []string{"gomoku-standard", "renju", "connectx:6x7x4:exact"} {
		r, _ := engine.ParseRules(rs)
		if _, err := New(r, Options{}); err == nil {
			t.Errorf("New(%s) accepted a line rule it does not prove", rs)
		}
	}
}
