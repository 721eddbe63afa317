package dbsearch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// diagram reads a board drawn top row first, one string per row, cells
// separated by spaces: x, o or '.'.
func diagram(t testing.TB, r engine.Rules, rows ...string) []engine.Color {
	t.Helper()
	if len(rows) != r.Rows {
		t.Fatalf("diagram has %d rows, rules %s", len(rows), r)
	}
	cells := make([]engine.Color, r.Cells())
	for i, line := range rows {
		f := strings.Fields(line)
		if len(f) != r.Cols {
			t.Fatalf("diagram row %d has %d cells, want %d", i, len(f), r.Cols)
		}
		row := r.Rows - 1 - i
		for col, v := range f {
			c := engine.Empty
			switch v {
			case "x":
				c = engine.X
			case "o":
				c = engine.O
			case ".":
			default:
				t.Fatalf("diagram cell %q", v)
			}
			cells[row*r.Cols+col] = c
		}
	}
	return cells
}

// build plays a legal game reaching cells (x and o alternating, x first,
// gravity respected, no line completed on the way); it backtracks, so any
// reachable position of a small board is found.
func build(t testing.TB, r engine.Rules, cells []engine.Color) *engine.Position {
	t.Helper()
	var nx, no int
	for _, c := range cells {
		switch c {
		case engine.X:
			nx++
		case engine.O:
			no++
		}
	}
	if nx != no && nx != no+1 {
		t.Fatalf("x has %d stones, o %d: not a position of the game", nx, no)
	}
	pos := engine.NewPosition(r)
	done := make([]bool, len(cells))
	var rec func(left int) bool
	rec = func(left int) bool {
		if left == 0 {
			return true
		}
		side := pos.ToMove()
		for c, v := range cells {
			if v != side || done[c] {
				continue
			}
			m := pos.MoveOfCell(c)
			if !pos.Legal(m) || pos.Cell(m) != c {
				continue
			}
			pos.Play(m)
			if pos.Result() == engine.Open || left == 1 {
				done[c] = true
				if rec(left - 1) {
					return true
				}
				done[c] = false
			}
			pos.Undo()
		}
		return false
	}
	if !rec(nx + no) {
		t.Fatalf("no legal game reaches the diagram")
	}
	if pos.Result() != engine.Open {
		t.Fatalf("diagram position is over: %s", pos.Result().Describe())
	}
	return pos
}

// bruteForce is an independent checker: full-width depth-limited search on
// a plain array, the attacker moving first (whoever is to move in the
// engine), with only the two always-sound prunings: win now if you can,
// and block when the opponent has a single winning cell (two: you lose).
type bruteForce struct {
	rows, cols, k int
	gravity       bool
	cells         []int8 // 0 attacker, 1 defender, -1 empty
	nodes, budget int
	memo          map[uint64]bool
	keys          [2][]uint64 // random keys per side and cell
	hash          uint64      // of the stones on cells
}

func newBruteForce(pos *engine.Position, attacker engine.Color, budget int) *bruteForce {
	r := pos.Rules()
	bf := &bruteForce{rows: r.Rows, cols: r.Cols, k: r.K, gravity: r.Kind == engine.ConnectX, budget: budget, memo: map[uint64]bool{}}
	bf.cells = make([]int8, r.Cells())
	rng := rand.New(rand.NewPCG(42, 43))
	for s := range bf.keys {
		bf.keys[s] = make([]uint64, r.Cells())
		for i := range bf.keys[s] {
			bf.keys[s][i] = rng.Uint64()
		}
	}
	for row := 0; row < r.Rows; row++ {
		for col := 0; col < r.Cols; col++ {
			v := int8(-1)
			switch pos.At(row, col) {
			case attacker:
				v = 0
			case attacker.Other():
				v = 1
			}
			bf.cells[row*r.Cols+col] = v
			if v >= 0 {
				bf.hash ^= bf.keys[v][row*r.Cols+col]
			}
		}
	}
	return bf
}

// set puts side s (or -1: removes the stone of side old) on c.
func (bf *bruteForce) set(c int, s int8) {
	if old := bf.cells[c]; old >= 0 {
		bf.hash ^= bf.keys[old][c]
	}
	if s >= 0 {
		bf.hash ^= bf.keys[s][c]
	}
	bf.cells[c] = s
}

func (bf *bruteForce) legal(c int) bool {
	if bf.cells[c] != -1 {
		return false
	}
	return !bf.gravity || c < bf.cols || bf.cells[c-bf.cols] != -1
}

// line reports whether a stone of side s on c makes K in a row.
func (bf *bruteForce) line(c int, s int8) bool {
	r0, c0 := c/bf.cols, c%bf.cols
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for _, d := range dirs {
		n := 1
		for r, cc := r0+d[0], c0+d[1]; r >= 0 && r < bf.rows && cc >= 0 && cc < bf.cols && bf.cells[r*bf.cols+cc] == s; r, cc = r+d[0], cc+d[1] {
			n++
		}
		for r, cc := r0-d[0], c0-d[1]; r >= 0 && r < bf.rows && cc >= 0 && cc < bf.cols && bf.cells[r*bf.cols+cc] == s; r, cc = r-d[0], cc-d[1] {
			n++
		}
		if n >= bf.k {
			return true
		}
	}
	return false
}

// winning lists side s's legal cells that complete a line.
func (bf *bruteForce) winning(s int8) []int {
	var w []int
	for c := range bf.cells {
		if bf.legal(c) && bf.line(c, s) {
			w = append(w, c)
		}
	}
	return w
}

var errBudget = fmt.Errorf("brute force budget spent")

// wins reports whether side s, to move, forces a line of its own within
// plies plies (its moves and the opponent's).
func (bf *bruteForce) wins(s int8, plies int) (bool, error) {
	bf.nodes++
	if bf.nodes > bf.budget {
		return false, errBudget
	}
	if plies <= 0 {
		return false, nil
	}
	if len(bf.winning(s)) > 0 {
		return true, nil
	}
	if plies < 3 {
		return false, nil
	}
	key := bf.hash ^ uint64(plies)<<1 ^ uint64(s)
	if v, ok := bf.memo[key]; ok {
		return v, nil
	}
	moves := bf.winning(s ^ 1)
	if len(moves) >= 2 {
		bf.memo[key] = false
		return false, nil
	}
	if len(moves) == 0 {
		for c := range bf.cells {
			if bf.legal(c) {
				moves = append(moves, c)
			}
		}
	}
	res := false
	for _, m := range moves {
		bf.set(m, s)
		ok, err := bf.loses(s^1, plies-1)
		bf.set(m, -1)
		if err != nil {
			return false, err
		}
		if ok {
			res = true
			break
		}
	}
	bf.memo[key] = res
	return res, nil
}

// loses reports whether side s, to move, cannot stop the other side's line
// within plies.
func (bf *bruteForce) loses(s int8, plies int) (bool, error) {
	if len(bf.winning(s)) > 0 {
		return false, nil
	}
	threats := bf.winning(s ^ 1)
	if len(threats) >= 2 {
		return true, nil
	}
	if plies < 2 {
		return false, nil
	}
	moves := threats
	if len(moves) == 0 {
		for c := range bf.cells {
			if bf.legal(c) {
				moves = append(moves, c)
			}
		}
	}
	if len(moves) == 0 {
		return false, nil // a draw
	}
	for _, m := range moves {
		bf.set(m, s)
		ok, err := bf.wins(s^1, plies-1)
		bf.set(m, -1)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// defaultSearcher returns the rules named rs, a Searcher with the default
// Options for them, and a generator seeded with seed and the board's size.
func defaultSearcher(t testing.TB, rs string, seed uint64) (engine.Rules, *Searcher, *rand.Rand) {
	t.Helper()
	r := testpos.Rules(t, rs)
	s, err := New(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, s, rand.New(rand.NewPCG(seed, uint64(r.Cells())))
}
