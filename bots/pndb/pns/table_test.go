package pns

import (
	"math/rand/v2"
	"testing"
)

// TestTable fills a small table with random keys (its shards double on
// the way), sweeps half of them, and checks every lookup against a map.
func TestTable(t *testing.T) {
	for _, mib := range []int{1, 4} {
		tab := newTable(mib << 20 / BytesPerNode)
		if c := tab.capacity() * BytesPerNode; c > mib<<20 {
			t.Fatalf("%d MiB: %d bytes", mib, c)
		}
		rng := rand.New(rand.NewPCG(1, uint64(mib)))
		want := map[uint64]uint32{}
		for {
			k := rng.Uint64()
			e, created := tab.insert(k)
			if e == nil {
				break // the key's shard is full
			}
			if !created {
				t.Fatalf("key %x created twice", k)
			}
			e.pn = uint32(len(want))
			want[k] = e.pn
		}
		// Random keys fill the shards evenly: the first full one comes
		// near the limit.
		if tab.live != len(want) || tab.live > tab.limit() || tab.live < tab.limit()*85/100 {
			t.Fatalf("%d MiB: %d live, %d inserted, limit %d", mib, tab.live, len(want), tab.limit())
		}
		check := func(when string) {
			for k, pn := range want {
				if e := tab.find(k); e == nil || e.pn != pn {
					t.Fatalf("%d MiB %s: key %x lost", mib, when, k)
				}
			}
			for i := 0; i < 1000; i++ {
				if k := rng.Uint64(); tab.find(k) != nil && want[k] == 0 {
					t.Fatalf("%d MiB %s: key %x found, never inserted", mib, when, k)
				}
			}
		}
		check("full")
		tab.sweep(func(e *entry) bool { return e.pn%2 == 0 }, nil)
		for k, pn := range want {
			if pn%2 == 1 {
				if tab.find(k) != nil {
					t.Fatalf("%d MiB: swept key %x still found", mib, k)
				}
				delete(want, k)
			}
		}
		check("swept")
		if tab.live != len(want) {
			t.Fatalf("%d MiB: %d live after the sweep, want %d", mib, tab.live, len(want))
		}
	}
}
