package engine

import (
	"errors"
	"fmt"
	"testing"
)

// play parses and plays a move list, failing the test on error.
func play(t testing.TB, rules string, moves string) *Position {
	t.Helper()
	r, err := ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	list, err := r.ParseMoveList(moves)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPosition(r)
	if err := p.PlayMoveList(list); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWinDetection(t *testing.T) {
	tests := []struct {
		rules, moves string
		want         Result
	}{
		{"connect4", "1212121", XWins},            // vertical
		{"connect4", "1122334", XWins},            // horizontal
		{"connect4", "12234334544", XWins},        // diagonal
		{"connect4", "11213151", OWins},           // o vertical in column 1
		{"tictactoe", "a1 a2 b2 a3 c3", XWins},    // diagonal
		{"tictactoe", "a1 b1 a2 b2 c3 b3", OWins}, // vertical column b
		{"tictactoe", "b2 a1 c1 a3 a2 c2 b1 b3 c3", Draw},
		{"gomoku", "a1 a2 b1 b2 c1 c2 d1 d2 e1", XWins},
		{"gomoku", "a1 a2 b1 b2 c1 c2 d1 d2", Open},
		{"mnk:5x5x3", "c1 a5 b2 e5 a3", XWins}, // anti-diagonal c1 b2 a3
		{"connectx:3x3x3", "123123", Open},
	}
	for _, tc := range tests {
		r, _ := ParseRules(tc.rules)
		list, err := r.ParseMoveList(tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		p := NewPosition(r)
		var perr error
		for _, m := range list {
			if perr = p.Apply(m); perr != nil {
				break
			}
		}
		if tc.want == Open && perr == nil && p.Result() != Open {
			t.Errorf("%s %s: result %v, want open", tc.rules, tc.moves, p.Result())
		}
		if tc.want != Open && p.Result() != tc.want {
			t.Errorf("%s %s: result %v (err %v), want %v", tc.rules, tc.moves, p.Result(), perr, tc.want)
		}
	}
}

func TestIllegalMoves(t *testing.T) {
	p := play(t, "connect4", "111111")
	if err := p.Check(0); !errors.Is(err, ErrColumnFull) {
		t.Errorf("full column: %v", err)
	}
	if err := p.Check(7); !errors.Is(err, ErrOutOfBoard) {
		t.Errorf("off board: %v", err)
	}
	q := play(t, "tictactoe", "b2")
	if err := q.Check(4); !errors.Is(err, ErrOccupied) {
		t.Errorf("occupied: %v", err)
	}
	w := play(t, "tictactoe", "a1 b1 a2 b2 a3")
	h := w.Hash()
	if err := w.Apply(8); !errors.Is(err, ErrGameOver) {
		t.Errorf("after the end: %v", err)
	}
	if w.Hash() != h || w.Ply() != 5 {
		t.Errorf("a refused move changed the position")
	}
}

func TestUndoRestoresEverything(t *testing.T) {
	for _, rules := range []string{"connect4", "gomoku", "mnk:70x70x10", "connectx:38x58x12"} {
		r, _ := ParseRules(rules)
		p := NewPosition(r)
		empty := p.Clone()
		var moves []Move
		seed := uint64(42)
		for p.Result() == Open && p.Ply() < 200 {
			legal := p.LegalMoves(nil)
			seed = seed*6364136223846793005 + 1442695040888963407
			m := legal[(seed>>33)%uint64(len(legal))]
			p.Play(m)
			moves = append(moves, m)
		}
		for i := len(moves) - 1; i >= 0; i-- {
			m, ok := p.Undo()
			if !ok || m != moves[i] {
				t.Fatalf("%s: undo %d gave %v, %v; want %v", rules, i, m, ok, moves[i])
			}
		}
		if p.Hash() != empty.Hash() || p.Hash() != 0 || p.Ply() != 0 || p.Result() != Open || p.Diagram() != empty.Diagram() {
			t.Errorf("%s: undo did not restore the empty board", rules)
		}
		if _, ok := p.Undo(); ok {
			t.Errorf("%s: undo on an empty board succeeded", rules)
		}
	}
}

func TestHashIsOrderIndependent(t *testing.T) {
	a := play(t, "gomoku", "h8 h9 j8 j9")
	b := play(t, "gomoku", "j8 j9 h8 h9")
	c := play(t, "gomoku", "h8 h9 j9 j8")
	if a.Hash() != b.Hash() {
		t.Errorf("same stones, same side to move, different hashes")
	}
	if a.Hash() == c.Hash() {
		t.Errorf("different stones, same hash")
	}
}

// TestTicTacToeGames enumerates every game of tic-tac-toe: 255,168 games,
// 131,184 won by the first player, 77,904 by the second, 46,080 drawn.
func TestTicTacToeGames(t *testing.T) {
	r, _ := ParseRules("tictactoe")
	p := NewPosition(r)
	var counts [4]int
	var walk func()
	walk = func() {
		if res := p.Result(); res != Open {
			counts[res]++
			return
		}
		for m := Move(0); m < 9; m++ {
			if p.Legal(m) {
				p.Play(m)
				walk()
				p.Undo()
			}
		}
	}
	walk()
	total := counts[XWins] + counts[OWins] + counts[Draw]
	got := fmt.Sprint(total, counts[XWins], counts[OWins], counts[Draw])
	if want := "255168 131184 77904 46080"; got != want {
		t.Errorf("games, x wins, o wins, draws = %s; want %s", got, want)
	}
}

// TestConnect4PositionCounts counts the distinct Connect-4 positions after
// 0..8 plies: 1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275.
func TestConnect4PositionCounts(t *testing.T) {
	want := []int{1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275}
	p := NewPosition(Connect4())
	level := map[uint64]*Position{p.Hash(): p}
	for ply, w := range want {
		if len(level) != w {
			t.Fatalf("ply %d: %d positions, want %d", ply, len(level), w)
		}
		if ply == len(want)-1 {
			break
		}
		next := make(map[uint64]*Position, w*4)
		for _, q := range level {
			if q.Result() != Open {
				continue
			}
			for _, m := range q.LegalMoves(nil) {
				q.Play(m)
				if _, seen := next[q.Hash()]; !seen {
					next[q.Hash()] = q.Clone()
				}
				q.Undo()
			}
		}
		level = next
	}
}

func TestDiagram(t *testing.T) {
	p := play(t, "connect4", "4453")
	want := " 1 2 3 4 5 6 7\n" +
		" . . . . . . .\n . . . . . . .\n . . . . . . .\n . . . . . . .\n" +
		" . . . o . . .\n . . o x x . ."
	if got := p.Diagram(); got != want {
		t.Errorf("Diagram:\n%s\nwant:\n%s", got, want)
	}
	q := play(t, "tictactoe", "b2 a1")
	want = "  a b c\n3 . . . 3\n2 . x . 2\n1 o . . 1\n  a b c"
	if got := q.Diagram(); got != want {
		t.Errorf("Diagram:\n%s\nwant:\n%s", got, want)
	}
}
