package proven

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// far is a deadline no test reaches on any machine.
func far() time.Time { return time.Now().Add(time.Hour) }

// positions lists every sequence of up to plies moves of g whose game is
// still open (mirrors included).
func positions(t *testing.T, sv *solver.Solver, plies int) [][]int {
	t.Helper()
	var out [][]int
	var walk func(p solver.Position, cols []int)
	walk = func(p solver.Position, cols []int) {
		out = append(out, append([]int(nil), cols...))
		if len(cols) == plies {
			return
		}
		for c := 0; c < p.Cols(); c++ {
			if p.CanPlay(c) && !p.IsWinningMove(c) {
				q := p
				q.Play(c)
				if !q.GameOver() {
					walk(q, append(cols, c))
				}
			}
		}
	}
	walk(sv.NewPosition(), nil)
	return out
}

// With the book and without it (the solver alone, given all the time it
// needs), the player plays a move of the same proven score in every
// position the book covers, and that score is the position's best (the
// solver's own Analyze); where several moves are best the two may pick
// different ones (the book the centre-most, the solver the first its
// table proves). The book's moves say they are the book's.
func TestBookAndSolverPlayTheSame(t *testing.T) {
	g := book.Geometry{Rows: 4, Cols: 5, K: 4}
	const plies = 5
	bk, err := book.Build(context.Background(), book.Options{Geometry: g, Plies: plies, Jobs: 2, TTMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
	if err != nil {
		t.Fatal(err)
	}
	est := NewEstimator(g.Cells())
	same, all := 0, 0
	defer func() { t.Logf("the same column in %d of %d positions", same, all) }()
	for _, cols := range positions(t, sv, plies-1) {
		all++
		with := NewPlayer(sv, bk, est)
		without := NewPlayer(sv, nil, NewEstimator(g.Cells()))
		a, okA := with.Proven(context.Background(), cols, far())
		b, okB := without.Proven(context.Background(), cols, far())
		if !okA || !okB {
			t.Fatalf("%s: proven with book %v, without %v", book.FormatCols(cols), okA, okB)
		}
		if a.Source != FromBook || b.Source != FromSolver {
			t.Errorf("%s: sources %v and %v, want book and solver", book.FormatCols(cols), a.Source, b.Source)
		}
		p := sv.NewPosition()
		for _, c := range cols {
			p.Play(c)
		}
		scores, err := sv.Analyze(context.Background(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		if a.Score != b.Score || scores[a.Col] != a.Score || scores[b.Col] != b.Score || func() bool { _, s := best(scores); return a.Score != s }() {
			t.Errorf("%s: book plays %d (score %d), solver %d (score %d); the columns' scores %v", book.FormatCols(cols), a.Col+1, a.Score, b.Col+1, b.Score, scores)
		}
		if a.Col == b.Col {
			same++
		}
	}
}

// A move of the search that would give up an outcome the bot had proven
// is replaced by one that keeps it; a move that keeps it stands.
func TestKeepHoldsProvenOutcome(t *testing.T) {
	g := book.Geometry{Rows: 4, Cols: 5, K: 4}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 26))
	checked := 0
	for _, cols := range positions(t, sv, 6) {
		if len(cols) < 2 || rng.IntN(4) != 0 {
			continue
		}
		// The bot proved a value two plies ago and played its move; the
		// opponent answered with the last column.
		before := cols[:len(cols)-2]
		pl := NewPlayer(sv, nil, NewEstimator(g.Cells()))
		m, ok := pl.Proven(context.Background(), before, far())
		if !ok || m.Col != cols[len(cols)-2] || m.Score < 0 {
			continue
		}
		p := sv.NewPosition()
		for _, c := range cols {
			p.Play(c)
		}
		scores, err := sv.Analyze(context.Background(), p, true)
		if err != nil {
			t.Fatal(err)
		}
		want := cmp.Compare(m.Score, 0)
		for c, s := range scores {
			if s == solver.Invalid {
				continue
			}
			pl.played(len(before), m.Score) // as Proven left it
			got := pl.Keep(context.Background(), cols, c, far())
			if !pl.HasValue(len(cols)+2) && want >= 0 {
				t.Errorf("%s: move %d checked, but no value kept for the next move", book.FormatCols(cols), c+1)
			}
			if s >= want && got != c {
				t.Errorf("%s: move %d keeps outcome %d (weak %d) but was replaced by %d", book.FormatCols(cols), c+1, want, s, got+1)
			}
			if s < want && scores[got] < want {
				t.Errorf("%s: move %d loses outcome %d (weak %d); kept %d, weak %d", book.FormatCols(cols), c+1, want, s, got+1, scores[got])
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no position checked")
	}
}

// The estimate grows with the empty cells, and a solve that took longer
// than predicted makes the next estimate longer.
func TestEstimatorLearns(t *testing.T) {
	e := NewEstimator(42)
	if a, b := e.Estimate(20), e.Estimate(30); !(a < b) {
		t.Fatalf("estimate at 20 empty cells %v, at 30 %v: want growth", a, b)
	}
	before := e.Estimate(30)
	e.Observe(30, 1e8, 20*time.Second) // a hundred times the prior's nodes, a slow machine
	if after := e.Estimate(30); after <= before {
		t.Fatalf("estimate after a slow solve %v, before %v: want longer", after, before)
	}
}

// A strategy book's moves are played as they are (the book's, with their
// weak scores), and they are best moves: on a small board, with the
// strategy book and without any (the solver alone), the player's move at
// every position of the book has the same outcome, that of the position;
// past the book both play the solver's move, the same one.
func TestStrategyBookAndSolverPlayTheSame(t *testing.T) {
	g := book.Geometry{Rows: 4, Cols: 5, K: 4}
	bk, err := book.BuildStrategy(context.Background(), book.StrategyOptions{Geometry: g, XPlies: 6, OPlies: 5, Jobs: 2, TTMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
	if err != nil {
		t.Fatal(err)
	}
	inBook, past := 0, 0
	rng := rand.New(rand.NewPCG(26, 5))
	for _, cols := range positions(t, sv, bk.Plies+2) {
		e, held := bk.Move(cols)
		if !held && (len(cols) <= bk.Plies || rng.IntN(300) != 0) {
			continue
		}
		with := NewPlayer(sv, bk, NewEstimator(g.Cells()))
		without := NewPlayer(sv, nil, NewEstimator(g.Cells()))
		a, okA := with.Proven(context.Background(), cols, far())
		b, okB := without.Proven(context.Background(), cols, far())
		if !okA || !okB {
			t.Fatalf("%s: proven with book %v, without %v", book.FormatCols(cols), okA, okB)
		}
		if held {
			inBook++
			if a.Source != FromBook || a.Col != e.Move || a.Weak != e.Weak {
				t.Errorf("%s: with the book %+v, the book holds %+v", book.FormatCols(cols), a, e)
			}
			if cmp.Compare(a.Score, 0) != cmp.Compare(b.Score, 0) {
				t.Errorf("%s: the book's move %d scores %d, the solver's %d scores %d", book.FormatCols(cols), a.Col+1, a.Score, b.Col+1, b.Score)
			}
			continue
		}
		past++
		a.Nodes, b.Nodes = 0, 0
		if a != b {
			t.Errorf("%s: past the book, with it %+v, without %+v", book.FormatCols(cols), a, b)
		}
	}
	if inBook == 0 || past == 0 {
		t.Fatalf("%d positions in the book, %d past it: want some of each", inBook, past)
	}
	t.Logf("%d positions in the book, %d past it", inBook, past)
}

// The shipped 6x7 strategy book: at a seeded sample of its first
// player's deepest positions (the cheapest to solve), the player with the
// book plays the book's move and the player without it (the solver alone)
// a move of the same outcome, a win; one ply past the book (a seeded reply
// of the second player) both play the solver's move, the same one.
func TestShippedBookAndSolverPlayTheSame(t *testing.T) {
	g := book.Geometry{Rows: 6, Cols: 7, K: 4}
	bk, err := book.Default(g)
	if err != nil {
		t.Fatal(err)
	}
	if bk == nil || !bk.Strategy {
		t.Skip("no 6x7 strategy book shipped")
	}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 16)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(26, 6))
	for range 2 {
		// Down the first player's strategy: its book moves, random
		// replies that do not end the game.
		var cols []int
		var last []int
		for {
			e, ok := bk.Move(cols)
			if !ok {
				break
			}
			last = append([]int(nil), cols...)
			cols = append(cols, e.Move)
			p := sv.NewPosition()
			for _, c := range cols {
				p.Play(c)
			}
			// Replies that neither win nor let the first player win at
			// once (a game that goes on).
			var replies []int
			for c := range g.Cols {
				if !p.CanPlay(c) || p.IsWinningMove(c) {
					continue
				}
				q := p
				q.Play(c)
				ends := q.GameOver()
				for d := range g.Cols {
					ends = ends || (q.CanPlay(d) && q.IsWinningMove(d))
				}
				if !ends {
					replies = append(replies, c)
				}
			}
			cols = append(cols, replies[rng.IntN(len(replies))])
		}
		for i, pos := range [][]int{last, cols} {
			with := NewPlayer(sv, bk, NewEstimator(g.Cells()))
			without := NewPlayer(sv, nil, NewEstimator(g.Cells()))
			a, okA := with.Proven(context.Background(), pos, far())
			b, okB := without.Proven(context.Background(), pos, far())
			if !okA || !okB {
				t.Fatalf("%s: proven with book %v, without %v", book.FormatCols(pos), okA, okB)
			}
			if i == 0 && (a.Source != FromBook || a.Score <= 0 || b.Score <= 0) {
				t.Errorf("%s (the book's): with the book %+v, without %+v: want the book's move and two wins", book.FormatCols(pos), a, b)
			}
			a.Nodes, b.Nodes = 0, 0
			if i == 1 && a != b {
				t.Errorf("%s (past the book): with it %+v, without %+v", book.FormatCols(pos), a, b)
			}
			t.Logf("%s: with the book %+v, without %+v", book.FormatCols(pos), a, b)
		}
	}
}

// Past a strategy book's win, the player's next move (the solver's, with
// the win it proved kept: the position is not solved again) wins, against
// every reply.
func TestWinKeptPastTheBook(t *testing.T) {
	g := book.Geometry{Rows: 4, Cols: 4, K: 3}
	bk, err := book.BuildStrategy(context.Background(), book.StrategyOptions{Geometry: g, XPlies: 2, OPlies: -1, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 4)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, first := range positions(t, sv, 3) {
		if len(first) != 3 {
			continue
		}
		pl := NewPlayer(sv, bk, NewEstimator(g.Cells()))
		m0, ok := pl.Proven(context.Background(), nil, far())
		if !ok || m0.Source != FromBook || m0.Score != 1 || first[0] != m0.Col {
			continue
		}
		m2, ok := pl.Proven(context.Background(), first[:2], far())
		if !ok || first[2] != m2.Col {
			continue
		}
		if m2.Source != FromBook || m2.Score != 1 {
			t.Fatalf("%s: %+v, want the book's win", book.FormatCols(first[:2]), m2)
		}
		for r := range g.Cols {
			cols := append(append([]int(nil), first...), r)
			p := sv.NewPosition()
			ok := true
			for _, c := range cols {
				if !p.CanPlay(c) || p.IsWinningMove(c) {
					ok = false
					break
				}
				p.Play(c)
			}
			if !ok || p.GameOver() {
				continue
			}
			// An estimate of an hour and a half for a deadline in an
			// hour: a weak solve (a third of it fits), not an exact one.
			pl.est = &Estimator{logN0: math.Log(1e7 * 5400), rate: 1e7, e0: g.Cells() - len(cols), growth: 1.8}
			m, ok := pl.Proven(context.Background(), cols, far())
			if !ok || m.Source != FromSolver || !m.Weak || m.Score != 1 {
				t.Fatalf("%s: %+v (%v), want a weak win from the solver", book.FormatCols(cols), m, ok)
			}
			q := p
			if !q.IsWinningMove(m.Col) {
				q.Play(m.Col)
				v, err := sv.Solve(context.Background(), q, true)
				if err != nil {
					t.Fatal(err)
				}
				if v >= 0 {
					t.Errorf("%s: the solver's move %d leaves the opponent %d", book.FormatCols(cols), m.Col+1, v)
				}
			}
			checked++
			// Back to the position two plies before: the next reply.
			pl.played(len(first)-1, 1)
		}
	}
	if checked == 0 {
		t.Fatal("no position checked")
	}
	t.Logf("%d positions past the book checked", checked)
}
