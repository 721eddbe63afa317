package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// slowPlayList replays moves one by one with Apply, as PlayMoveList does
// without the bitboard.
func slowPlayList(p *Position, moves []Move) error {
	for _, m := range moves {
		if err := p.Apply(m); err != nil {
			return err
		}
	}
	return nil
}

// sameReplay fails t unless replaying moves with PlayMoveList (the
// bitboard path where it applies) and move by move give the same board,
// history, hash, result and error (or none).
func sameReplay(t *testing.T, r Rules, moves []Move) {
	t.Helper()
	fast, slow := NewPosition(r), NewPosition(r)
	errFast := fast.PlayMoveList(moves)
	errSlow := slowPlayList(slow, moves)
	if (errFast == nil) != (errSlow == nil) {
		t.Fatalf("%s %v: PlayMoveList error %v, move by move %v", r, moves, errFast, errSlow)
	}
	if errFast != nil {
		return // the slow path said why; the board is not compared
	}
	if !slices.Equal(fast.cells, slow.cells) || !slices.Equal(fast.history, slow.history) ||
		!slices.Equal(fast.heights, slow.heights) || fast.hash != slow.hash || fast.result != slow.result {
		t.Fatalf("%s %v: PlayMoveList gives %v (%v), move by move %v (%v)", r, moves, fast.result, fast.hash, slow.result, slow.hash)
	}
}

// TestPlayListFastMatchesMoveByMove: random move lists, legal and not
// (full columns, moves after the end, columns off the board), on boards
// that fit the bitboard and at its edges (8x7: 63 bits, 7x8: 64), replay
// to the same position as move by move, or fail where it fails.
func TestPlayListFastMatchesMoveByMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spec := range []string{"connect4", "connectx:4x4x4", "connectx:5x5x3", "connectx:2x3x2", "connectx:8x7x4", "connectx:7x8x5", "connectx:6x7x6", "connectx:3x3x3", "connectx:1x9x4"} {
		r, err := ParseRules(spec)
		if err != nil {
			t.Fatal(err)
		}
		if !gravityListFits(r) {
			t.Fatalf("%s: the bitboard does not take it", spec)
		}
		for range 3000 {
			n := rng.IntN(r.Cells() + 3)
			moves := make([]Move, n)
			for i := range moves {
				moves[i] = Move(rng.IntN(r.Cols))
				if rng.IntN(200) == 0 {
					moves[i] = Move(rng.IntN(r.Cols+4) - 2) // off the board, now and then
				}
			}
			sameReplay(t, r, moves)
			// The longest legal prefix too: most random lists break early.
			p := NewPosition(r)
			for i, m := range moves {
				if p.Apply(m) != nil {
					sameReplay(t, r, moves[:i])
					break
				}
			}
		}
	}
	big, err := ParseRules("connectx:8x8x4") // 72 bits: move by move only
	if err != nil {
		t.Fatal(err)
	}
	if gravityListFits(big) {
		t.Error("connectx:8x8x4 is past 64 bits and must not take the bitboard")
	}
}

// FuzzPlayMoveList: any digit list on Connect-4 replays as move by move.
func FuzzPlayMoveList(f *testing.F) {
	for _, s := range []string{"4455", "4444444", "12121212", "5554224333234511764415115"} {
		f.Add(s)
	}
	r := Connect4()
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := r.ParseMoveList(s)
		if err != nil {
			return
		}
		sameReplay(t, r, moves)
	})
}
