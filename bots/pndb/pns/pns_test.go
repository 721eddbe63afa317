package pns

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestSolveEmptyBoards proves the known values of small empty boards.
func TestSolveEmptyBoards(t *testing.T) {
	for _, tc := range []struct {
		rules string
		want  int
		long  bool
		db    int // Options.DBNodes
	}{
		{"mnk:3x3x3", 0, false, 0},
		{"mnk:4x4x3", 1, false, 0},
		{"mnk:4x4x4", 0, true, 0},
		{"mnk:3x4x4", 0, false, 0},
		{"connectx:4x4x4", 0, false, 0},
		{"connectx:4x6x4", -1, true, 0},
		{"mnk:6x5x4", 1, true, 0},
		{"mnk:3x3x3", 0, false, 100},
		{"mnk:4x4x3", 1, false, 100},
		{"mnk:3x4x4", 0, false, 100},
		{"connectx:4x4x4", 0, false, 100},
		{"mnk:6x5x4", 1, true, 100},
		{"mnk:5x5x4", 0, true, 0},
		{"mnk:5x5x4", 0, true, 100},
	} {
		t.Run(fmt.Sprintf("%s/db=%d", tc.rules, tc.db), func(t *testing.T) {
			if tc.long && os.Getenv("KINROW_LONG") == "" {
				t.Skip("long: set KINROW_LONG=1")
			}
			p := testpos.Of(t, tc.rules, "")
			mem := 64
			if tc.long {
				mem = 512
			}
			s, err := New(p.Rules(), Options{MemMiB: mem, DBNodes: tc.db})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			v, known, err := s.Solve(context.Background(), p)
			if err != nil || !known {
				t.Fatalf("solve: %v known=%v stats=%+v", err, known, s.Stats())
			}
			if v != tc.want {
				t.Errorf("value %d, want %d", v, tc.want)
			}
			t.Logf("%s: %d in %v, %+v", tc.rules, v, time.Since(start), s.Stats())
		})
	}
}

// TestDoubleThreat: on 7x7x4 with X to move, X makes an open three's
// double threat and the search proves the win quickly.
func TestDoubleThreat(t *testing.T) {
	// X: c3 d3 (row 3), O far away: a7 b7. X to move: e3 or b3 makes an
	// open three with both ends free -> two winning cells.
	p := testpos.Of(t, "mnk:7x7x4", "c3 a7 d3 b7")
	s, err := New(p.Rules(), Options{MaxExpansions: 20000})
	if err != nil {
		t.Fatal(err)
	}
	o, err := s.Prove(context.Background(), p, Win)
	if err != nil || o != Proved {
		t.Fatalf("outcome %v err %v stats %+v", o, err, s.Stats())
	}
	m, proved := s.Best()
	if !proved {
		t.Fatalf("best %v not proved", m)
	}
	// The winning move must keep a win: verify by proving the child
	// is lost for O.
	q := p.Clone()
	q.Play(m)
	s2, _ := New(p.Rules(), Options{MaxExpansions: 20000})
	if o, _ := s2.Prove(context.Background(), q, NotLose); o != Disproved {
		t.Errorf("after %s O not lost: %v", p.Rules().FormatMove(m), o)
	}
	t.Logf("win by %s, %+v", p.Rules().FormatMove(m), s.Stats())
}

// TestMustBlock: O threatens to complete four; X has no win of its own, so
// QuickMove and the search block.
func TestMustBlock(t *testing.T) {
	// O: a1 b1 c1; X: a3 c3 g7. X to move must play d1.
	p := testpos.Of(t, "mnk:7x7x4", "a3 a1 c3 b1 g7 c1")
	want, _ := p.Rules().ParseMove("d1")
	q := QuickMove(p, nil)
	if q.Move != want || !q.Forced {
		t.Errorf("QuickMove %s forced=%v, want d1 forced", p.Rules().FormatMove(q.Move), q.Forced)
	}
	s, _ := New(p.Rules(), Options{MaxExpansions: 2000})
	s.Prove(context.Background(), p, NotLose)
	if m, _ := s.Best(); m != want {
		t.Errorf("search best %s, want d1", p.Rules().FormatMove(m))
	}
	// Two threats: X cannot stop both, the search proves the loss.
	p = testpos.Of(t, "mnk:7x7x4", "a3 a1 c3 b1 g7 c1 g6 b2 a6 b3")
	s, _ = New(p.Rules(), Options{MaxExpansions: 2000})
	if o, _ := s.Prove(context.Background(), p, NotLose); o != Disproved {
		t.Errorf("double threat against X: %v, want disproved", o)
	}
}

// TestConnect4Signs: on the first 50 positions of the shared L3 set, every
// proved value has the sign of SCORE; unknowns are counted.
func TestConnect4Signs(t *testing.T) {
	lines := c4set.Read(t, "Test_L3_R1.txt", 50, nil)
	for _, db := range []int{0, 100} {
		t.Run(fmt.Sprintf("db=%d", db), func(t *testing.T) {
			connect4Signs(t, lines, db)
		})
	}
}

// connect4Signs solves the first 50 positions of lines with DB-search
// nodes db (0: none) and checks the signs.
func connect4Signs(t *testing.T, lines [][]string, db int) {
	r := engine.Connect4()
	s, err := New(r, Options{MemMiB: 64, MaxExpansions: 20000, DBNodes: db})
	if err != nil {
		t.Fatal(err)
	}
	unknown, n := 0, 0
	for _, fields := range lines {
		n++
		want, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		p := engine.NewPosition(r)
		for _, ch := range fields[0] {
			m := engine.Move(ch - '1')
			if err := p.Apply(m); err != nil {
				t.Fatalf("line %d: %v", n, err)
			}
		}
		v, known, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if !known {
			unknown++
			continue
		}
		if v != cmp.Compare(want, 0) {
			t.Errorf("line %d %s: value %d, SCORE %d", n, fields[0], v, want)
		}
	}
	t.Logf("%d positions, %d unknown within 20000 expansions, %+v", n, unknown, s.Stats())
}

// BenchmarkExpand measures PN iterations (one expansion each) on the empty
// Connect-4 board, goal Win (not decided within any benchmark's reach).
func BenchmarkExpand(b *testing.B) {
	benchProve(b, engine.NewPosition(engine.Connect4()), Options{})
}

// benchProve runs b.N PN iterations of goal Win from p with opt (MemMiB
// 256 unless set), reporting allocations and expansions per second; it
// returns the searcher for more figures.
func benchProve(b *testing.B, p *engine.Position, opt Options) *Searcher {
	b.ReportAllocs()
	if opt.MemMiB == 0 {
		opt.MemMiB = 256
	}
	opt.MaxExpansions = int64(b.N)
	s, err := New(p.Rules(), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if _, err := s.Prove(context.Background(), p, Win); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.Stats().Expanded)/b.Elapsed().Seconds(), "expansions/s")
	return s
}

// TestMemoryCap: with a 1 MiB budget on the empty Connect-4 board the
// table fills, is collected (and cut) again and again, never holds more
// than its limit, and the search still answers within its budget.
func TestMemoryCap(t *testing.T) {
	p := testpos.Of(t, "connect4", "")
	s, err := New(p.Rules(), Options{MemMiB: 1, MaxExpansions: 60000})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Stats().Capacity * BytesPerNode; c > 1<<20 || c < 1<<20*99/100 {
		t.Errorf("capacity %d bytes, want 1 MiB of %d-byte slots", c, BytesPerNode)
	}
	o, err := s.Prove(context.Background(), p, Win)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if o != Unknown || st.Stopped != ErrBudget {
		t.Fatalf("outcome %v, stopped %v, want unknown by ErrBudget", o, st.Stopped)
	}
	if st.GCs == 0 || st.Collapsed == 0 {
		t.Errorf("%d collections, %d cuts: the table never filled", st.GCs, st.Collapsed)
	}
	if st.Nodes > s.MaxNodes() || s.MaxNodes() > st.Capacity {
		t.Errorf("%d nodes, over the limit of %d (capacity %d)", st.Nodes, s.MaxNodes(), st.Capacity)
	}
	if m, _ := s.Best(); m == engine.NoMove {
		t.Errorf("no best move after a full table")
	}
	t.Logf("%+v", st)
}

// TestConnectXMustBlock: under gravity, O threatens three in a row on the
// bottom row; X must take the open end.
func TestConnectXMustBlock(t *testing.T) {
	// Columns (1-based): X 1, O 2, X 1, O 3, X 7, O 4 -> O has 2,3,4 on
	// row 1 with 1 taken by X: only column 5 wins for O.
	p := testpos.Of(t, "connect4", "1 2 1 3 7 4")
	want := engine.Move(4)
	if q := QuickMove(p, nil); q.Move != want || !q.Forced {
		t.Errorf("QuickMove %v forced=%v, want column 5 forced", q.Move+1, q.Forced)
	}
	s, _ := New(p.Rules(), Options{MaxExpansions: 200})
	s.Prove(context.Background(), p, NotLose)
	if m, _ := s.Best(); m != want {
		t.Errorf("search best %v, want column 5", m+1)
	}
}

// BenchmarkExpandDB measures PN iterations on an opening of gomoku, goal
// Win, without and with DB-search at each expanded leaf.
func BenchmarkExpandDB(b *testing.B) {
	for _, db := range []int{0, 100} {
		b.Run(fmt.Sprintf("db=%d", db), func(b *testing.B) {
			s := benchProve(b, testpos.Of(b, "gomoku", "h8 j9 h9 h10 g8 j8"), Options{DBNodes: db})
			b.ReportMetric(float64(s.Stats().DBSearches)/b.Elapsed().Seconds(), "db-searches/s")
		})
	}
}
