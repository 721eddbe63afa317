package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/engine"
)

// bruteForce scores positions by plain memoised negamax over engine's
// Position, a board implementation independent of this package's bitboard.
type bruteForce struct {
	memo map[uint64]int
	half int
}

func newBruteForce(r engine.Rules) *bruteForce {
	return &bruteForce{memo: map[uint64]int{}, half: (r.Cells() + 1) / 2}
}

// score is the exact score of an open position for the side to move.
func (b *bruteForce) score(p *engine.Position) int {
	if v, ok := b.memo[p.Hash()]; ok {
		return v
	}
	best := -1 << 30
	for _, m := range p.LegalMoves(nil) {
		best = max(best, b.after(p, m))
	}
	b.memo[p.Hash()] = best
	return best
}

// after is the exact score of the legal move m for the side to move in p.
func (b *bruteForce) after(p *engine.Position, m engine.Move) int {
	n := p.Ply()
	p.Play(m)
	defer p.Undo()
	switch p.Result() {
	case engine.Open:
		return -b.score(p)
	case engine.Draw:
		return 0
	}
	return b.half - n/2
}

// toSolver replays p's moves on a solver position.
func toSolver(t testing.TB, s *Solver, p *engine.Position) Position {
	t.Helper()
	q := s.NewPosition()
	for _, m := range p.Moves(nil) {
		if !q.CanPlay(int(m)) {
			t.Fatalf("column %d refused", m)
		}
		q.Play(int(m))
	}
	return q
}

// TestAgainstBruteForce compares Solve (exact and weak) and Analyze with
// the brute force on every position of random games on small boards. Small
// boards keep every position in the near table; the split variants move
// the boundary (Solver.nearFrom) so that both tables serve each search,
// "etc everywhere" tries enhanced transposition cutoffs at every node, and
// "mirror everywhere" stores every position under the smaller of its key
// and its mirror image's (and prunes the mirrored moves of symmetric ones).
func TestAgainstBruteForce(t *testing.T) {
	for _, rs := range []string{"connectx:3x3x3", "connectx:4x4x3", "connectx:3x5x3", "connectx:5x3x3", "connectx:4x3x2", "connectx:2x6x3", "connectx:4x4x4"} {
		for _, split := range []string{"default", "half", "far only", "etc everywhere", "mirror everywhere"} {
			t.Run(rs+"/"+split, func(t *testing.T) { checkBruteForce(t, rs, split) })
		}
	}
}

// smallBoard returns the rules rs, a brute force for them and a solver of
// their board with a 1 MiB table.
func smallBoard(t *testing.T, rs string) (engine.Rules, *bruteForce, *Solver) {
	t.Helper()
	r, err := engine.ParseRules(rs)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(r.Rows, r.Cols, r.K, 1)
	if err != nil {
		t.Fatal(err)
	}
	return r, newBruteForce(r), s
}

func checkBruteForce(t *testing.T, rs, split string) {
	r, bf, s := smallBoard(t, rs)
	switch split {
	case "half":
		s.w.nearFrom = r.Cells() / 2
	case "far only":
		s.w.nearFrom = r.Cells() + 1
	case "etc everywhere":
		s.w.nearFrom, s.w.etcFrom = r.Cells()/2, r.Cells()
	case "mirror everywhere":
		s.w.nearFrom, s.w.etcFrom, s.w.symTo = r.Cells()/2, r.Cells(), r.Cells()+1
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(rs))))
	checked := 0
	for game := 0; game < 6; game++ {
		p := engine.NewPosition(r)
		for p.Result() == engine.Open {
			want := bf.score(p)
			q := toSolver(t, s, p)
			got, err := s.Solve(context.Background(), q, false)
			if err != nil || got != want {
				t.Fatalf("%s: Solve = %d, %v; brute force %d", r.FormatMoveList(p.Moves(nil)), got, err, want)
			}
			weak, _ := s.Solve(context.Background(), q, true)
			if weak != cmp.Compare(want, 0) {
				t.Fatalf("%s: weak Solve = %d; want %d", r.FormatMoveList(p.Moves(nil)), weak, cmp.Compare(want, 0))
			}
			scores, err := s.Analyze(context.Background(), q, false)
			if err != nil {
				t.Fatal(err)
			}
			weakScores, err := s.Analyze(context.Background(), q, true)
			if err != nil {
				t.Fatal(err)
			}
			for c, sc := range scores {
				if w := weakScores[c]; (sc == Invalid) != (w == Invalid) || (sc != Invalid && w != cmp.Compare(sc, 0)) {
					t.Fatalf("%s: weak Analyze column %d = %d; exact %d", r.FormatMoveList(p.Moves(nil)), c+1, w, sc)
				}
			}
			for c := 0; c < r.Cols; c++ {
				m := engine.Move(c)
				if !p.Legal(m) {
					if scores[c] != Invalid {
						t.Fatalf("column %d full but scored %d", c+1, scores[c])
					}
					continue
				}
				if cw := bf.after(p, m); scores[c] != cw {
					t.Fatalf("%s: Analyze column %d = %d; brute force %d", r.FormatMoveList(p.Moves(nil)), c+1, scores[c], cw)
				}
			}
			checked++
			legal := p.LegalMoves(nil)
			p.Play(legal[rng.IntN(len(legal))])
		}
	}
	t.Logf("%d positions agree", checked)
}

// TestTrompBoards proves John Tromp's published results for small boards
// from the empty position (rows x columns, four in a row).
func TestTrompBoards(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		sign       int
	}{
		{4, 4, 0}, {4, 5, 0}, {4, 6, -1}, {5, 5, 0}, {5, 6, 0}, {6, 4, 0},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.rows, tc.cols), func(t *testing.T) {
			s, err := New(tc.rows, tc.cols, 4, 16)
			if err != nil {
				t.Fatal(err)
			}
			v, err := s.Solve(context.Background(), s.NewPosition(), false)
			if err != nil {
				t.Fatal(err)
			}
			if cmp.Compare(v, 0) != tc.sign {
				t.Fatalf("score %d, want sign %d", v, tc.sign)
			}
			t.Logf("score %d, %d nodes", v, s.Nodes())
		})
	}
}

// TestLargerBoards solves boards of up to 36 cells from the empty position
// (KINROW_LONG=1; about a minute in all) and checks the root score against
// the scores of its moves.
func TestLargerBoards(t *testing.T) {
	if os.Getenv("KINROW_LONG") == "" {
		t.Skip("set KINROW_LONG=1 to solve boards of up to 36 cells")
	}
	for _, b := range [][2]int{{6, 5}, {4, 7}, {7, 4}, {4, 8}, {5, 7}, {6, 6}} {
		t.Run(fmt.Sprintf("%dx%d", b[0], b[1]), func(t *testing.T) {
			s, err := New(b[0], b[1], 4, 64)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			v, err := s.Solve(context.Background(), s.NewPosition(), false)
			if err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			checkBestMove(t, s, s.NewPosition(), v, "the empty board")
			t.Logf("score %d, %d nodes, %v", v, s.Nodes(), elapsed)
		})
	}
}

// sharedSet reads the first n lines of the shared Connect-4 test set
// Test_<name>.txt, or skips the test when the shared data is absent.
func sharedSet(t testing.TB, name string, n int) [][]string {
	t.Helper()
	return c4set.Read(t, "Test_"+name+".txt", n, nil)
}

// TestSharedSets checks Solve and Analyze on the shared Connect-4 sets: a
// few lines of each by default, whole sets with KINROW_LONG=1.
func TestSharedSets(t *testing.T) {
	long := os.Getenv("KINROW_LONG") != ""
	for _, tc := range []struct {
		set            string
		strong, analyz int // lines checked, default run
		longS, longA   int // with KINROW_LONG
	}{
		{"L3_R1", 100, 30, 1000, 1000},
		{"L2_R1", 30, 5, 1000, 1000},
		{"L1_R1", 2, 0, 200, 20},
		{"L1_R3", 0, 0, 200, 20},
	} {
		ns, na := tc.strong, tc.analyz
		if long {
			ns, na = tc.longS, tc.longA
		}
		if ns == 0 && na == 0 {
			continue
		}
		t.Run(tc.set, func(t *testing.T) {
			s, err := New(6, 7, 4, DefaultTTMiB)
			if err != nil {
				t.Fatal(err)
			}
			for i, fl := range sharedSet(t, tc.set, max(ns, na)) {
				p := s.NewPosition()
				if _, err := s.PlaySequence(&p, fl[0]); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				if i < ns {
					v, err := s.Solve(context.Background(), p, false)
					if err != nil || strconv.Itoa(v) != fl[1] {
						t.Fatalf("line %d %s: Solve = %d, %v; want %s", i+1, fl[0], v, err, fl[1])
					}
				}
				if i < na {
					checkColumns(t, s, p, i+1, fl)
				}
			}
		})
	}
}

// TestCancel: a cancelled context stops the search with its error, and
// the table still gives exact answers afterwards.
func TestCancel(t *testing.T) {
	s, err := New(6, 7, 4, 8)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err = s.Solve(ctx, s.NewPosition(), false)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Solve of the empty 6x7 board in 30 ms: %v, want the deadline", err)
	}
	p := s.NewPosition()
	if _, err := s.PlaySequence(&p, "4444443"); err != nil {
		t.Fatal(err)
	}
	v, err := s.Solve(context.Background(), p, false)
	if err != nil {
		t.Fatal(err)
	}
	checkBestMove(t, s, p, v, "after a cancelled search")
}

// checkColumns analyzes p, the position of line of a shared set, and
// fails t unless every column scores as the line's fields say ("-" for a
// full one).
func checkColumns(t testing.TB, s *Solver, p Position, line int, fields []string) {
	t.Helper()
	scores, err := s.Analyze(context.Background(), p, false)
	if err != nil {
		t.Fatalf("line %d %s: %v", line, fields[0], err)
	}
	for c, sc := range scores {
		got := strconv.Itoa(sc)
		if sc == Invalid {
			got = "-"
		}
		if got != fields[2+c] {
			t.Fatalf("line %d %s: column %d scores %s; want %s", line, fields[0], c+1, got, fields[2+c])
		}
	}
}

// checkBestMove analyzes p and fails t unless its best move scores v, the
// value Solve gave for p; what says which position it is.
func checkBestMove(t testing.TB, s *Solver, p Position, v int, what string) {
	t.Helper()
	scores, err := s.Analyze(context.Background(), p, false)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if best := slices.Max(scores); best != v {
		t.Fatalf("%s: score %d but the best move scores %d (%v)", what, v, best, scores)
	}
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		rows, cols, k int
		want          string
	}{
		{0, 7, 4, "at least 1"},
		{6, 0, 4, "at least 1"},
		{8, 8, 4, "limit is 64"},
		{6, 7, 1, "out of range"},
		{6, 7, 8, "out of range"},
	} {
		if _, err := New(tc.rows, tc.cols, tc.k, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%d, %d, %d) = %v; want an error with %q", tc.rows, tc.cols, tc.k, err, tc.want)
		}
	}
}

func TestPlaySequence(t *testing.T) {
	s, err := New(6, 7, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		seq   string
		n     int
		error string
	}{
		{"", 0, ""},
		{"4455", 4, ""},
		{"1111111", 6, "column 1 is full"},
		{"12a", 2, "no such column"},
		{"80", 0, "no such column"},
		{"1212121", 7, ""},
		{"12121213", 7, "already won"},
	} {
		p := s.NewPosition()
		n, err := s.PlaySequence(&p, tc.seq)
		if n != tc.n || (err == nil) != (tc.error == "") || (err != nil && !strings.Contains(err.Error(), tc.error)) {
			t.Errorf("PlaySequence(%q) = %d, %v; want %d, %q", tc.seq, n, err, tc.n, tc.error)
		}
		if err != nil && p.Moves() != 0 {
			t.Errorf("PlaySequence(%q) failed but changed the position", tc.seq)
		}
		if err == nil && p.Moves() != len(tc.seq) {
			t.Errorf("PlaySequence(%q) played %d moves", tc.seq, p.Moves())
		}
	}
}

// FuzzPlaySequence: whatever the input, PlaySequence either plays it all
// or leaves the position unchanged, and agrees with the engine's rules.
func FuzzPlaySequence(f *testing.F) {
	for _, seed := range []string{"", "4455", "1111111", "12121213", "a", "7777776"} {
		f.Add(seed)
	}
	s, err := New(6, 7, 4, 1)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seq string) {
		p := s.NewPosition()
		n, err := s.PlaySequence(&p, seq)
		e := engine.NewPosition(engine.Connect4())
		ok := true
		for i := 0; i < len(seq); i++ {
			c := colOf(seq[i])
			if c < 0 || c >= 7 || e.Result() != engine.Open || !e.Legal(engine.Move(c)) {
				ok = false
				if err == nil || n != i {
					t.Fatalf("%q: engine refuses move %d, PlaySequence = %d, %v", seq, i, n, err)
				}
				break
			}
			e.Play(engine.Move(c))
		}
		if ok && (err != nil || n != len(seq) || p.Moves() != len(seq)) {
			t.Fatalf("%q: engine accepts it, PlaySequence = %d, %v", seq, n, err)
		}
		if ok && p.GameOver() != (e.Result() != engine.Open) {
			t.Fatalf("%q: GameOver %v, engine result %v", seq, p.GameOver(), e.Result())
		}
	})
}
