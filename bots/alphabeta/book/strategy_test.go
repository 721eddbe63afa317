package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// strategyBoards are small boards whose strategies the solver decides in
// milliseconds: first player's wins and draws (the empty board's entry
// says which), so wins, draws and losses (the second player's, scored
// exactly) are all decided.
var strategyBoards = []StrategyOptions{
	{Geometry: Geometry{Rows: 4, Cols: 5, K: 4}, XPlies: 6, OPlies: 5},
	{Geometry: Geometry{Rows: 4, Cols: 4, K: 3}, XPlies: 6, OPlies: 5},
	{Geometry: Geometry{Rows: 3, Cols: 5, K: 3}, XPlies: 4, OPlies: 3},
	{Geometry: Geometry{Rows: 5, Cols: 4, K: 4}, XPlies: 6, OPlies: 5},
}

// checkStrategy checks every entry of b against the solver (its score, or
// the sign of it when weak; its move reaches that score) and that each
// side's strategy is closed: from the empty board, every reply of the
// other side to a book move leads to a position the book decides, up to
// the side's plies.
// It returns the number of positions the strategies reach.
func checkStrategy(t *testing.T, b *Book, xPlies, oPlies int, sample func(int) bool) int {
	t.Helper()
	return walkStrategy(t, b, xPlies, oPlies, func(uint64, int) bool { return sample(0) })
}

// walkStrategy is checkStrategy with the entries checked against the
// solver chosen by their key and ply.
func walkStrategy(t *testing.T, b *Book, xPlies, oPlies int, sample func(key uint64, ply int) bool) int {
	t.Helper()
	g := b.Geometry
	sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
	if err != nil {
		t.Fatal(err)
	}
	seen, reached := map[uint64]bool{}, map[uint64]bool{}
	checked := 0
	strategyWalk(b, xPlies, oPlies, func(sp strategyPos, e Entry, ok bool) {
		p, bd, cols, n := sp.pos, sp.bd, sp.cols, len(sp.cols)
		if !ok {
			t.Fatalf("%v: strategy not closed: %s (ply %d) is not in the book", g, FormatCols(cols), n)
		}
		if !p.CanPlay(e.Move) {
			t.Fatalf("%v: %s: the book's move %d is not playable", g, FormatCols(cols), e.Move+1)
		}
		if keyStones(g, bd.Fold()) != n {
			t.Fatalf("%v: %s: keyStones %d, want %d", g, FormatCols(cols), keyStones(g, bd.Fold()), n)
		}
		reached[bd.Fold()] = true
		key := bd.Fold()
		if seen[key] || !sample(key, n) {
			return
		}
		seen[key] = true
		checked++
		// The move's value first: a winning move proves the position a
		// win (a weak win's entry needs no more).
		want := 1
		if !e.Weak || e.Score != 1 {
			if want, err = sv.Solve(context.Background(), p, e.Weak); err != nil {
				t.Fatal(err)
			}
		}
		if e.Score != want {
			t.Errorf("%v: %s: book %d (weak %v), solver %d", g, FormatCols(cols), e.Score, e.Weak, want)
		}
		got := g.WinScore(n)
		if e.Weak {
			got = 1
		}
		if !p.IsWinningMove(e.Move) {
			child := p
			child.Play(e.Move)
			if got = 0; !child.GameOver() {
				v, err := sv.Solve(context.Background(), child, e.Weak)
				if err != nil {
					t.Fatal(err)
				}
				got = -v
			}
		}
		if got != want {
			t.Errorf("%v: %s: the book's move %d scores %d, the position %d", g, FormatCols(cols), e.Move+1, got, want)
		}
	})
	if checked == 0 {
		t.Errorf("%v: no entry checked", g)
	}
	t.Logf("%v: %d entries checked against the solver", g, checked)
	return len(reached)
}

// strategyPos is a position a strategy reaches: its moves, the solver's
// board and the book's.
type strategyPos struct {
	cols []int
	pos  solver.Position
	bd   Board
}

// strategyWalk unfolds each side's strategy in b from the empty board, up
// to its plies (negative: none): at each of the side's positions it calls
// visit with the book's entry (ok false when the book holds none; the walk
// stops there, as it does past a winning or unplayable move) and follows
// the book's move; at the other side's it follows every move that does
// not end the game. A position reached twice is visited twice.
func strategyWalk(b *Book, xPlies, oPlies int, visit func(sp strategyPos, e Entry, ok bool)) {
	g := b.Geometry
	sv, err := solver.New(g.Rows, g.Cols, g.K, 1)
	if err != nil {
		panic(err) // b's geometry was checked when it was made
	}
	var walk func(p solver.Position, bd Board, cols []int, side, lim int)
	walk = func(p solver.Position, bd Board, cols []int, side, lim int) {
		if len(cols) > lim {
			return
		}
		if len(cols)%2 == side {
			e, ok := b.MoveAt(bd)
			visit(strategyPos{cols, p, bd}, e, ok)
			if !ok || !p.CanPlay(e.Move) || p.IsWinningMove(e.Move) {
				return
			}
			p.Play(e.Move)
			bd.Play(e.Move)
			if !p.GameOver() {
				walk(p, bd, append(cols, e.Move), side, lim)
			}
			return
		}
		for c := range g.Cols {
			if p.CanPlay(c) && !p.IsWinningMove(c) {
				q, qb := p, bd
				q.Play(c)
				qb.Play(c)
				if !q.GameOver() {
					walk(q, qb, append(cols, c), side, lim)
				}
			}
		}
	}
	if xPlies >= 0 {
		walk(sv.NewPosition(), NewBoard(g), nil, 0, xPlies)
	}
	if oPlies >= 0 {
		walk(sv.NewPosition(), NewBoard(g), nil, 1, oPlies)
	}
}

func TestStrategyEqualsSolverAndIsClosed(t *testing.T) {
	for _, o := range strategyBoards {
		o.Jobs, o.TTMiB = 2, 4
		b, err := BuildStrategy(context.Background(), o)
		if err != nil {
			t.Fatalf("%v: %v", o.Geometry, err)
		}
		if !b.Strategy || b.Plies != max(o.XPlies, o.OPlies) {
			t.Errorf("%v: strategy %v plies %d", o.Geometry, b.Strategy, b.Plies)
		}
		if n := checkStrategy(t, b, o.XPlies, o.OPlies, func(int) bool { return true }); n != b.Len() {
			t.Errorf("%v: the strategies reach %d positions, the book holds %d", o.Geometry, n, b.Len())
		}
		e, _ := b.Move(nil)
		t.Logf("%v: %d positions, the empty board %+v", o.Geometry, b.Len(), e)
	}
}

// Only one side's strategy: the other side's positions are not decided.
func TestStrategyOneSide(t *testing.T) {
	g := Geometry{Rows: 4, Cols: 5, K: 4}
	b, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: g, XPlies: 4, OPlies: -1, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	if n := checkStrategy(t, b, 4, -1, func(int) bool { return true }); n != b.Len() {
		t.Errorf("the first player's strategy reaches %d positions, the book holds %d", n, b.Len())
	}
	if _, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: g, XPlies: -1, OPlies: -1}); err == nil {
		t.Error("a strategy of neither side was built")
	}
	if _, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: g, XPlies: 20}); err == nil {
		t.Error("a strategy to the last ply was built")
	}
}

// reseal puts the right checksum at the end of a damaged file.
func reseal(d []byte) []byte {
	binary.LittleEndian.PutUint32(d[len(d)-4:], crc32.ChecksumIEEE(d[:len(d)-4]))
	return d
}

// A strategy build stopped part way keeps what it decided in its journal;
// the next run decides only the rest and makes the same book. A journal
// of another board is refused.
func TestStrategyResumes(t *testing.T) {
	o := StrategyOptions{Geometry: Geometry{Rows: 4, Cols: 5, K: 4}, XPlies: 6, OPlies: 5, Jobs: 1, TTMiB: 2}
	whole, err := BuildStrategy(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Journal = filepath.Join(t.TempDir(), "s.journal")
	ctx, cancel := context.WithCancel(context.Background())
	stopped := 0
	so := o
	so.Progress = func(ply, done, total int) {
		if done > 0 {
			stopped++
		}
		if stopped >= 10 {
			cancel()
		}
	}
	if _, err := BuildStrategy(ctx, so); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped build: %v, want context.Canceled", err)
	}
	f, err := os.OpenFile(o.Journal, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("1f2e3 2") // torn: no newline
	f.Close()
	kept := map[uint64]Entry{}
	if _, err := openStrategyJournal(o.Journal, o, kept); err != nil {
		t.Fatal(err)
	}
	if len(kept) < 2 || len(kept) >= whole.Len() {
		t.Fatalf("the journal kept %d decisions of the stopped build, want some of the %d", len(kept), whole.Len())
	}
	first := -1
	ro := o
	ro.Progress = func(ply, done, total int) {
		if first < 0 {
			first = done
		}
	}
	again, err := BuildStrategy(context.Background(), ro)
	if err != nil {
		t.Fatal(err)
	}
	if first != 1 {
		t.Errorf("resumed build started with %d of the empty board's decisions made, want 1 (from the journal)", first)
	}
	// A decision is the first move proven to keep the value, which can
	// depend on what the solver's table held: the resumed book is another
	// valid strategy that keeps every decision the journal holds.
	if n := checkStrategy(t, again, o.XPlies, o.OPlies, func(int) bool { return true }); n != again.Len() {
		t.Errorf("the resumed strategies reach %d positions, the book holds %d", n, again.Len())
	}
	for k, e := range kept {
		if got, ok := again.Get(k); ok && got != e {
			t.Errorf("key %x: resumed book %+v, journal %+v", k, got, e)
		}
	}
	t.Logf("whole %d positions, resumed %d, %d decisions kept", whole.Len(), again.Len(), len(kept))
	o.Geometry = Geometry{Rows: 4, Cols: 4, K: 3}
	if _, err := BuildStrategy(context.Background(), o); err == nil {
		t.Error("a journal of 4x5 resumed a build of 4x4")
	}
}

// A version-2 book written and read back is the same book; damage to what
// only version 2 has is refused; version 1 files still read.
func TestStrategyFileRoundTripAndDamage(t *testing.T) {
	g := Geometry{Rows: 4, Cols: 5, K: 4}
	b, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: g, XPlies: 4, OPlies: 3, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	r, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version() != 2 || !r.Strategy || r.Plies != 4 || r.Len() != b.Len() {
		t.Fatalf("read back version %d strategy %v plies %d len %d", r.Version(), r.Strategy, r.Plies, r.Len())
	}
	for _, k := range b.keys {
		x, _ := b.Get(k)
		y, ok := r.Get(k)
		if !ok || x != y {
			t.Fatalf("key %x: read %+v, wrote %+v", k, y, x)
		}
	}
	n := b.Len()
	weak := -1
	for i := range n {
		if b.info[i]&weakBit != 0 {
			weak = i
			break
		}
	}
	if weak < 0 {
		t.Fatal("no weak entry to damage")
	}
	cases := map[string][]byte{
		"kind 2":      reseal(func() []byte { d := bytes.Clone(data); d[12] = 2; return d }()),
		"reserved":    reseal(func() []byte { d := bytes.Clone(data); d[14] = 1; return d }()),
		"move 9":      reseal(func() []byte { d := bytes.Clone(data); d[headerSize2+9*n] = 9; return d }()),
		"weak 5":      reseal(func() []byte { d := bytes.Clone(data); d[headerSize2+8*n+weak] = 5; return d }()),
		"short":       data[:headerSize2+2],
		"truncated":   data[:len(data)-1],
		"count lies":  reseal(func() []byte { d := bytes.Clone(data); d[16]++; return d }()),
		"bit flipped": func() []byte { d := bytes.Clone(data); d[headerSize2+1] ^= 4; return d }(),
	}
	for name, d := range cases {
		if _, err := Parse(d); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Parse = %v, want ErrFormat", name, err)
		}
	}
	// Exact scores only through Score and Lookup: a weak entry is no
	// exact score.
	if _, ok := r.Lookup(r.keys[weak]); ok {
		t.Error("Lookup gave a weak entry as an exact score")
	}
}

// A known book decides what it holds without solving; the strategy stays
// valid and closed.
func TestStrategyFromKnown(t *testing.T) {
	g := Geometry{Rows: 4, Cols: 5, K: 4}
	full, err := Build(context.Background(), Options{Geometry: g, Plies: 3, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: g, XPlies: 6, OPlies: 5, Jobs: 2, TTMiB: 2, Known: full})
	if err != nil {
		t.Fatal(err)
	}
	if n := checkStrategy(t, b, 6, 5, func(int) bool { return true }); n != b.Len() {
		t.Errorf("the strategies reach %d positions, the book holds %d", n, b.Len())
	}
	// The empty board and the positions of 1 and 2 stones come from the
	// full book's exact scores: no weak entry among them.
	for _, cols := range [][]int{{}, {0}, {2}, {2, 2}} {
		if e, ok := b.Move(cols); ok && e.Weak {
			t.Errorf("%s: weak %+v, want the known book's exact score", FormatCols(cols), e)
		}
	}
	other := Geometry{Rows: 4, Cols: 4, K: 3}
	if _, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: other, XPlies: 2, OPlies: -1, Known: full}); err == nil {
		t.Error("a known book of another board was taken")
	}
}

// TestStrategySlowestLoss: with SlowestLoss, every lost position of either
// strategy holds its exact score and a move that reaches it (the slowest
// loss: walkStrategy checks an exact entry's move against the exact
// score), on boards where both sides meet lost positions. Without it, the
// move that only does not lose at once loses faster in some of them: the
// help of kinrow book build promised the slowest loss, and the builder
// gave that move.
func TestStrategySlowestLoss(t *testing.T) {
	lostExact, faster := 0, 0
	for _, o := range strategyBoards {
		o.Jobs, o.TTMiB = 2, 4
		o.SlowestLoss = true
		slow, err := BuildStrategy(context.Background(), o)
		if err != nil {
			t.Fatalf("%v: %v", o.Geometry, err)
		}
		checkStrategy(t, slow, o.XPlies, o.OPlies, func(int) bool { return true })
		o.SlowestLoss = false
		quick, err := BuildStrategy(context.Background(), o)
		if err != nil {
			t.Fatalf("%v: %v", o.Geometry, err)
		}
		g := o.Geometry
		sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range lostPositions(slow, o.XPlies, o.OPlies) {
			e, _ := slow.MoveAt(p.bd)
			if e.Weak {
				t.Errorf("%v: lost position %s holds only the sign", g, FormatCols(p.cols))
				continue
			}
			lostExact++
			// The same position decided without SlowestLoss: does its
			// move lose faster?
			if q, ok := quick.MoveAt(p.bd); ok && q.Move != e.Move && moveScore(t, sv, p.pos, q.Move) < e.Score {
				faster++
			}
		}
	}
	t.Logf("%d lost positions hold their exact score; without SlowestLoss %d of them lose faster", lostExact, faster)
	if lostExact == 0 || faster == 0 {
		t.Errorf("lost positions %d, faster losses without SlowestLoss %d: the boards no longer test the slowest loss", lostExact, faster)
	}
}

// lostPositions returns the positions of each side's strategy in b where
// the book's entry is a loss for the side to move.
func lostPositions(b *Book, xPlies, oPlies int) []strategyPos {
	var out []strategyPos
	strategyWalk(b, xPlies, oPlies, func(sp strategyPos, e Entry, ok bool) {
		if ok && e.Score < 0 {
			sp.cols = append([]int(nil), sp.cols...)
			out = append(out, sp)
		}
	})
	return out
}

// moveScore is the exact score, for the side to move in p, of playing col.
func moveScore(t *testing.T, sv *solver.Solver, p solver.Position, col int) int {
	t.Helper()
	if p.IsWinningMove(col) {
		return p.Rows() * p.Cols() // above every score
	}
	p.Play(col)
	if p.GameOver() {
		return 0
	}
	v, err := sv.Solve(context.Background(), p, false)
	if err != nil {
		t.Fatal(err)
	}
	return -v
}
