package pns

import (
	"context"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// TestReuseAcrossMoves: after a search on the empty Connect-4 board, two
// moves along its principal variation lead to a root whose subtree is
// still in the table: the new search starts from the reused entries, and
// the entries no longer reachable are dropped.
func TestReuseAcrossMoves(t *testing.T) {
	p := testpos.Of(t, "connect4", "")
	s, err := New(p.Rules(), Options{MemMiB: 8, MaxExpansions: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := s.Prove(context.Background(), p, Win); err != nil || o != Unknown {
		t.Fatalf("first search: %v %v", o, err)
	}
	before := s.Stats().Nodes
	pv := s.PV(nil, 2)
	if len(pv) < 2 {
		t.Fatalf("principal variation %v: too short", pv)
	}
	for _, m := range pv {
		p.Play(m)
	}
	if o, err := s.Prove(context.Background(), p, Win); err != nil || o != Unknown {
		t.Fatalf("second search: %v %v", o, err)
	}
	st := s.Stats()
	if st.Reused == 0 || st.Reused >= before {
		t.Errorf("%d entries reused of %d", st.Reused, before)
	}
	if st.GCs == 0 {
		t.Errorf("no collection at the new root")
	}
	t.Logf("%d of %d entries reused after %v", st.Reused, before, p.Rules().FormatMoveList(pv))
}

// TestSmallMemInTime: gomoku with a 1 MiB table fills it in milliseconds;
// the search keeps collecting (and cutting its tree), never holds more
// than the table's limit, and answers a move by its deadline. The
// collection is checked on a budget of expansions, not of time: at load 16
// a 300 ms deadline left the search 340 expansions, too few to fill 1 MiB.
func TestSmallMemInTime(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxExp   int64
		deadline time.Duration
	}{
		{"5000 expansions", 5000, time.Minute},
		{"300ms deadline", 0, 300 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testpos.Of(t, "gomoku", "h8 j9 h9 h10 g8")
			s, err := New(p.Rules(), Options{MemMiB: 1, MaxExpansions: tc.maxExp})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), tc.deadline)
			defer cancel()
			start := time.Now()
			o, err := s.Prove(ctx, p, Win)
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			st := s.Stats()
			m, _ := s.Best()
			if m == engine.NoMove || !p.Legal(m) {
				t.Errorf("best move %v", m)
			}
			if tc.maxExp == 0 && took > tc.deadline+time.Second { // a loaded 2-core machine adds hundreds of ms
				t.Errorf("answered after %v, deadline %v", took, tc.deadline)
			}
			if st.Nodes > s.MaxNodes() || st.Capacity*BytesPerNode > 1<<20 {
				t.Errorf("%d nodes, limit %d, %d slots", st.Nodes, s.MaxNodes(), st.Capacity)
			}
			if tc.maxExp > 0 && st.GCs == 0 && o == Unknown && st.Stopped != ErrMemory {
				t.Errorf("no collection in %d expansions: %+v", tc.maxExp, st)
			}
			t.Logf("%v in %v: %+v", o, took, st)
		})
	}
}
