package crosscheck

import (
	"testing"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/alphabeta/wide"
	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/engine"
)

// rulesTable is the rules the fuzzer picks from (by the first byte).
var rulesTable = []string{
	"connect4", "connectx:5x5x4", "connectx:6x7x4:exact", "connectx:9x9x5", "connectx:12x10x4",
	"tictactoe", "mnk:6x6x4", "gomoku", "mnk:9x9x5:exact", "gomoku-standard", "renju", "mnk:9x9x5:renju",
	"mnk:6x6x5:renju", "mnk:5x8x4:exact", "connectx:5x4x3:exact",
}

// boards are the other boards of one game, each nil when it does not play
// the rules.
type boards struct {
	mics   *mics.Board
	solver *solver.Position
	wide   *wide.Board
}

func newBoards(t *testing.T, r engine.Rules) boards {
	// mics's board follows every line rule (a window flanked by the side's
	// own stone is closed for it where only exactly K wins).
	b := boards{mics: mics.NewBoard(r)}
	if r.Gravity() && r.Line == engine.Freestyle {
		if (r.Rows+1)*r.Cols <= 64 {
			s, err := solver.New(r.Rows, r.Cols, r.K, 1)
			if err != nil {
				t.Fatal(err)
			}
			p := s.NewPosition()
			b.solver = &p
		} else if wide.Fits(r.Rows, r.Cols, r.K) {
			w, err := wide.NewBoard(r.Rows, r.Cols, r.K)
			if err != nil {
				t.Fatal(err)
			}
			b.wide = w
		}
	}
	return b
}

// scan finds the winner by reading every maximal run of stones on the
// board: the reference every board is held to, for every line rule (a run
// of exactly K wins; a longer one too in freestyle, and for white in renju).
func scan(pos *engine.Position) engine.Color {
	r := pos.Rules()
	at := func(row, col int) engine.Color {
		if row < 0 || row >= r.Rows || col < 0 || col >= r.Cols {
			return engine.Empty
		}
		return pos.At(row, col)
	}
	for row := 0; row < r.Rows; row++ {
		for col := 0; col < r.Cols; col++ {
			c := at(row, col)
			if c == engine.Empty {
				continue
			}
			for d := 0; d < 4; d++ {
				dr, dc := engine.Direction(d)
				if at(row-dr, col-dc) == c {
					continue // not the start of the run
				}
				n := 0
				for at(row+n*dr, col+n*dc) == c {
					n++
				}
				longWins := r.Line == engine.Freestyle || r.Line == engine.Renju && c == engine.O
				if n == r.K || n > r.K && longWins {
					return c
				}
			}
		}
	}
	return engine.Empty
}

// canWin tells whether c has a move that wins at once (a cell, or a
// column's playable cell, where the engine sees a winning line of c).
func canWin(pos *engine.Position, c engine.Color) bool {
	r := pos.Rules()
	for m := range r.MoveRange() {
		if r.Gravity() && pos.Height(m) == r.Rows {
			continue
		}
		cell := pos.Cell(engine.Move(m))
		if pos.At(cell/r.Cols, cell%r.Cols) == engine.Empty && pos.WinsAt(cell, c) {
			return true
		}
	}
	return false
}

// check plays the game the bytes describe (each byte picks one of the
// legal moves) on every board, comparing each board's winner with the
// engine's after every move.
func check(t *testing.T, data []byte) {
	if len(data) == 0 {
		return
	}
	r, err := engine.ParseRules(rulesTable[int(data[0])%len(rulesTable)])
	if err != nil {
		t.Fatal(err)
	}
	pos := engine.NewPosition(r)
	b := newBoards(t, r)
	var legal []engine.Move
	for _, c := range data[1:] {
		if pos.Result() != engine.Open {
			break
		}
		legal = pos.LegalMoves(legal[:0])
		if len(legal) == 0 {
			t.Fatalf("%s %s: open, with no legal move", r, r.FormatMoveList(pos.Moves(nil)))
		}
		m := legal[int(c)%len(legal)]
		if b.solver != nil {
			if won := b.solver.IsWinningMove(int(m)); won != pos.WinsAt(pos.Cell(m), pos.ToMove()) {
				t.Fatalf("%s %s: solver says the move %s wins: %v, the engine not", r, r.FormatMoveList(pos.Moves(nil)), r.FormatMove(m), won)
			}
			b.solver.Play(int(m))
		}
		pos.Play(m)
		winner := pos.Result().Winner()
		if got := scan(pos); got != winner {
			t.Fatalf("%s %s: a scan of every line finds %v won, the engine %v", r, r.FormatMoveList(pos.Moves(nil)), got, winner)
		}
		if b.mics != nil {
			b.mics.Load(pos)
			if got := b.mics.Winner(); got != winner {
				t.Fatalf("%s %s: mics's board says %v won, the engine %v", r, r.FormatMoveList(pos.Moves(nil)), got, winner)
			}
			if pos.Result() == engine.Open {
				for s := engine.X; s <= engine.O; s++ {
					if got, want := b.mics.CanWin(int(s)), canWin(pos, s); got != want {
						t.Fatalf("%s %s: mics's board says %v can win at once: %v, the engine %v", r, r.FormatMoveList(pos.Moves(nil)), s, got, want)
					}
				}
			}
		}
		if b.wide != nil {
			b.wide.Play(int(m))
			if b.wide.Won() != (winner != engine.Empty) {
				t.Fatalf("%s %s: wide's board won: %v, the engine's winner %v", r, r.FormatMoveList(pos.Moves(nil)), b.wide.Won(), winner)
			}
		}
	}
}

// TestWinnersAgree plays a fixed set of pseudo-random games of every rules
// in the table.
func TestWinnersAgree(t *testing.T) {
	seed := uint64(5)
	for i := 0; i < 40*len(rulesTable); i++ {
		data := make([]byte, 1+200)
		data[0] = byte(i % len(rulesTable))
		for j := 1; j < len(data); j++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			data[j] = byte(seed >> 56)
		}
		check(t, data)
	}
}

// FuzzWinnersAgree: the same check on the fuzzer's games.
func FuzzWinnersAgree(f *testing.F) {
	for i := range rulesTable {
		f.Add([]byte{byte(i), 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9})
	}
	f.Fuzz(func(t *testing.T, data []byte) { check(t, data) })
}
