package mics

import (
	"math/rand/v2"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// recount checks every incremental structure of b against a recount from the
// stones alone; marked lists the cells marked, in order.
func recount(t *testing.T, b *Board, marked []int) {
	t.Helper()
	n, k := b.n, b.k
	// Stones and the free-cell array.
	if b.Ply() != len(marked) {
		t.Fatalf("ply %d, want %d", b.Ply(), len(marked))
	}
	want := make([]int8, n)
	for i := range want {
		want[i] = -1
	}
	for i, c := range marked {
		want[c] = int8(i & 1)
		if b.CellAt(i) != c {
			t.Fatalf("CellAt(%d) = %d, want %d", i, b.CellAt(i), c)
		}
	}
	for c := range want {
		if b.stone[c] != want[c] {
			t.Fatalf("cell %d holds %d, want %d", c, b.stone[c], want[c])
		}
	}
	seen := make([]bool, n)
	for i, c := range b.Free() {
		if b.index[c] != int32(i) {
			t.Fatalf("index[%d] = %d, want %d", c, b.index[c], i)
		}
		if want[c] != -1 || seen[c] {
			t.Fatalf("free cell %d is occupied or listed twice", c)
		}
		seen[c] = true
	}
	if len(b.Free()) != n-len(marked) {
		t.Fatalf("%d free cells, want %d", len(b.Free()), n-len(marked))
	}
	if b.gravity {
		for col := 0; col < b.cols; col++ {
			h := 0
			for h < b.rows && want[h*b.cols+col] != -1 {
				h++
			}
			if int(b.height[col]) != h {
				t.Fatalf("height of column %d = %d, want %d", col, b.height[col], h)
			}
		}
	}
	// Windows and everything derived from them.
	var acc [2][]int64
	var thr [2][]int32
	var eval [2]int64
	var open1, full [2]int32
	for s := 0; s < 2; s++ {
		acc[s] = make([]int64, n)
		thr[s] = make([]int32, n)
	}
	windows := 0
	for d := range ndirs {
		dr, dc := engine.Direction(d)
		dir := [2]int{dr, dc}
		for start := 0; start < n; start++ {
			r, c := start/b.cols, start%b.cols
			er, ec := r+(k-1)*dir[0], c+(k-1)*dir[1]
			if er < 0 || er >= b.rows || ec < 0 || ec >= b.cols {
				continue
			}
			windows++
			var cnt [2]int
			for j := 0; j < k; j++ {
				if v := want[(r+j*dir[0])*b.cols+c+j*dir[1]]; v >= 0 {
					cnt[v]++
				}
			}
			if x, o := b.Window(d, start); x != cnt[0] || o != cnt[1] {
				t.Fatalf("window d%d start %d counts (%d,%d), want (%d,%d)", d, start, x, o, cnt[0], cnt[1])
			}
			// The stones on the two flanking cells (under exact an own
			// stone there closes the window for the side).
			var fl [2]int
			for _, j := range []int{-1, k} {
				fr, fc := r+j*dir[0], c+j*dir[1]
				if fr >= 0 && fr < b.rows && fc >= 0 && fc < b.cols {
					if v := want[fr*b.cols+fc]; v >= 0 {
						fl[v]++
					}
				}
			}
			for s := 0; s < 2; s++ {
				a := cnt[s]
				if cnt[s^1] != 0 || b.rules.Line.ExactFor(engine.Color(s)) && fl[s] != 0 {
					continue
				}
				eval[s] += b.t.w[a]
				if a == k-1 {
					open1[s]++
				}
				if a == k {
					full[s]++
				}
				for j := 0; j < k; j++ {
					y := (r+j*dir[0])*b.cols + c + j*dir[1]
					acc[s][y] += b.t.g[a]
					thr[s][y] += b.t.tc[a]
				}
			}
		}
	}
	if windows != b.total {
		t.Fatalf("%d windows, board says %d", windows, b.total)
	}
	for s := 0; s < 2; s++ {
		if eval[s] != b.eval[s] || open1[s] != b.open1[s] || full[s] != b.full[s] {
			t.Fatalf("side %d: eval %d open1 %d full %d, want %d %d %d", s, b.eval[s], b.open1[s], b.full[s], eval[s], open1[s], full[s])
		}
	}
	for y := 0; y < n; y++ {
		r, c := y/b.cols, y%b.cols
		adj := int64(0)
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				rr, cc := r+dr, c+dc
				if (dr != 0 || dc != 0) && rr >= 0 && rr < b.rows && cc >= 0 && cc < b.cols && want[rr*b.cols+cc] >= 0 {
					adj++
				}
			}
		}
		for s := 0; s < 2; s++ {
			crit := ownMult*acc[s][y] + acc[s^1][y] + adjBonus*b.t.g[0]*adj + b.centre[y]
			if key := crit<<jitterBits | int64(b.jitter[y]); key != b.key[s][y] {
				t.Fatalf("side %d cell %d: key %d, want %d", s, y, b.key[s][y], key)
			}
			if b.hot[y] != isHot(b.thr[y]) {
				t.Fatalf("cell %d: hot %v, threats %#x", y, b.hot[y], b.thr[y])
			}
			if b.threats(y, s) != thr[s][y] {
				t.Fatalf("side %d cell %d: threats %#x, want %#x", s, y, b.threats(y, s), thr[s][y])
			}
		}
	}
}

// randomCell returns a random legal cell of b: any free cell, or on
// Connect-X the playable cell of a random non-full column.
func randomCell(b *Board, rng *rand.Rand) int {
	if b.gravity {
		for {
			if c := b.Playable(rng.IntN(b.cols)); c >= 0 {
				return c
			}
		}
	}
	f := b.Free()
	return int(f[rng.IntN(len(f))])
}

func TestWindowCountsMarkUnmark(t *testing.T) {
	tests := []struct {
		rules string
		steps int // marks and unmarks
		every int // recount every so many steps
	}{
		{"tictactoe", 200, 1},
		{"mnk:1x3x2", 100, 1},
		{"mnk:4x9x4", 400, 1},
		{"mnk:9x4x3", 400, 1},
		{"gomoku", 1500, 7},
		{"connect4", 600, 1},
		{"connectx:5x3x3", 300, 1},
		{"connectx:3x8x8", 300, 1},
		{"mnk:70x70x10", 3000, 500},
		{"connectx:38x58x12", 3000, 500},
		{"mnk:4x9x4:exact", 400, 1},
		{"mnk:6x6x3:exact", 400, 1},
		{"gomoku-standard", 1500, 7},
		{"renju", 1500, 7},
		{"mnk:9x9x5:renju", 600, 1},
		{"connectx:6x7x4:exact", 600, 1},
		{"connectx:5x3x3:exact", 300, 1},
	}
	for _, tc := range tests {
		t.Run(tc.rules, func(t *testing.T) {
			r := testpos.Rules(t, tc.rules)
			b := NewBoard(r)
			recount(t, b, nil)
			rng := rand.New(rand.NewPCG(1, 2))
			var marked []int
			for step := 1; step <= tc.steps; step++ {
				// Mostly forward, sometimes back: the board fills and empties.
				if len(marked) > 0 && (b.nfree == 0 || rng.IntN(5) < 2) {
					b.Unmark()
					marked = marked[:len(marked)-1]
				} else {
					c := randomCell(b, rng)
					b.Mark(c)
					marked = append(marked, c)
				}
				if step%tc.every == 0 {
					recount(t, b, marked)
				}
			}
			recount(t, b, marked)
			for len(marked) > 0 {
				b.Unmark()
				marked = marked[:len(marked)-1]
			}
			recount(t, b, nil)
		})
	}
}

// TestMarkSequences replays fixed sequences and checks the counts of the
// windows they touch by hand.
func TestMarkSequences(t *testing.T) {
	tests := []struct {
		name   string
		rules  string
		cells  []int
		undo   int
		d      int // direction
		start  int
		wantX  int
		wantO  int
		winner engine.Color
	}{
		{"row of three", "tictactoe", []int{0, 3, 1, 4, 2}, 0, 0, 0, 3, 0, engine.X},
		{"row taken back", "tictactoe", []int{0, 3, 1, 4, 2}, 1, 0, 0, 2, 0, engine.Empty},
		{"column mixed", "tictactoe", []int{0, 3, 6}, 0, 1, 0, 2, 1, engine.Empty},
		{"diagonal", "tictactoe", []int{0, 1, 4, 2, 8}, 0, 2, 0, 3, 0, engine.X},
		{"anti-diagonal", "tictactoe", []int{0, 2, 1, 4, 3, 6}, 0, 3, 2, 0, 3, engine.O},
		{"gomoku five", "gomoku", []int{112, 0, 113, 1, 114, 2, 115, 3, 116}, 0, 0, 112, 5, 0, engine.X},
		{"connect4 column", "connect4", []int{3, 4, 10, 11, 17, 18, 24}, 0, 1, 3, 4, 0, engine.X},
		// x on 112..114 and 116, then 115: six (111 too) in freestyle, the
		// window 112..116 is full but flanked by x's 111.
		{"gomoku six", "gomoku", []int{111, 0, 112, 2, 113, 4, 114, 6, 116, 8, 115}, 0, 0, 112, 5, 0, engine.X},
		{"standard six", "gomoku-standard", []int{111, 0, 112, 2, 113, 4, 114, 6, 116, 8, 115}, 0, 0, 112, 5, 0, engine.Empty},
		{"standard five", "gomoku-standard", []int{112, 0, 113, 1, 114, 2, 115, 3, 116}, 0, 0, 112, 5, 0, engine.X},
		{"renju black six", "renju", []int{111, 0, 112, 2, 113, 4, 114, 6, 116, 8, 115}, 0, 0, 112, 5, 0, engine.Empty},
		{"renju white six", "renju", []int{200, 111, 202, 112, 204, 113, 206, 114, 208, 116, 210, 115}, 0, 0, 112, 0, 5, engine.O},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBoard(testpos.Rules(t, tc.rules))
			for _, c := range tc.cells {
				b.Mark(c)
			}
			for i := 0; i < tc.undo; i++ {
				b.Unmark()
			}
			if x, o := b.Window(tc.d, tc.start); x != tc.wantX || o != tc.wantO {
				t.Errorf("window (%d,%d) = %d,%d, want %d,%d", tc.d, tc.start, x, o, tc.wantX, tc.wantO)
			}
			if w := b.Winner(); w != tc.winner {
				t.Errorf("winner %v, want %v", w, tc.winner)
			}
			recount(t, b, tc.cells[:len(tc.cells)-tc.undo])
		})
	}
}

// TestLoad follows a game with Load: forward, back and to another line.
func TestLoad(t *testing.T) {
	for _, rules := range []string{"gomoku", "connect4", "connectx:38x58x12", "gomoku-standard", "renju"} {
		t.Run(rules, func(t *testing.T) {
			r := testpos.Rules(t, rules)
			b := NewBoard(r)
			pos := engine.NewPosition(r)
			rng := rand.New(rand.NewPCG(3, 4))
			var legal []engine.Move
			for i := 0; i < 200; i++ {
				switch {
				case pos.Ply() > 0 && (pos.Result() != engine.Open || rng.IntN(4) == 0):
					pos.Undo()
				default:
					legal = pos.LegalMoves(legal[:0])
					pos.Play(legal[rng.IntN(len(legal))])
				}
				b.Load(pos)
				cells := make([]int, 0, pos.Ply())
				q := engine.NewPosition(r)
				for _, m := range pos.Moves(nil) {
					cells = append(cells, q.Cell(m))
					q.Play(m)
				}
				recount(t, b, cells)
			}
		})
	}
}

func TestSetSeedKeepsValues(t *testing.T) {
	b := NewBoard(testpos.Rules(t, "gomoku"))
	cells := []int{112, 113, 97, 98}
	for _, c := range cells {
		b.Mark(c)
	}
	b.SetSeed(42)
	recount(t, b, cells)
	b.Unmark()
	recount(t, b, cells[:3])
}

func TestMarkAllocatesNothing(t *testing.T) {
	for _, rules := range []string{"mnk:70x70x10", "mnk:70x70x10:exact", "renju"} {
		markAllocatesNothing(t, rules)
	}
}

func markAllocatesNothing(t *testing.T, rules string) {
	b := NewBoard(testpos.Rules(t, rules))
	allocs := testing.AllocsPerRun(100, func() {
		b.Mark(b.n / 2)
		b.Mark(b.n/2 + 1)
		b.Unmark()
		b.Unmark()
	})
	if allocs != 0 {
		t.Errorf("%s: Mark/Unmark: %v allocations, want 0", rules, allocs)
	}
}
