package pns

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/internal/testpos"
)

// TestSolveSmallTable: boards whose proofs need more nodes than a 1 MiB
// table holds are solved as with a table large enough never to be
// collected, the small one being collected and cut again and again.
func TestSolveSmallTable(t *testing.T) {
	for _, tc := range []struct {
		rules string
		long  bool
	}{
		{"connectx:5x4x4", false},
		{"mnk:4x4x4", false}, // 27 k expansions, 43 k nodes at most
	} {
		t.Run(tc.rules, func(t *testing.T) {
			if tc.long && os.Getenv("KINROW_LONG") == "" {
				t.Skip("long: set KINROW_LONG=1")
			}
			p := testpos.Of(t, tc.rules, "")
			solve := func(mem int) (int, Stats) {
				s, err := New(p.Rules(), Options{MemMiB: mem})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				v, known, err := s.Solve(ctx, p)
				if err != nil || !known {
					t.Fatalf("mem %d: %v known=%v %+v", mem, err, known, s.Stats())
				}
				return v, s.Stats()
			}
			want, big := solve(64)
			if big.GCs != 0 {
				t.Fatalf("the 64 MiB reference was collected: %+v", big)
			}
			got, small := solve(1)
			if got != want || small.GCs == 0 {
				t.Errorf("1 MiB: value %d after %d collections, want %d", got, small.GCs, want)
			}
			t.Logf("%s: %d; 64 MiB %d expansions, 1 MiB %+v", tc.rules, want, big.Total, small)
		})
	}
}
