package solver

import (
	"math/rand/v2"
	"testing"
)

// TestTableGrow stores entries for random keys, grows the table and checks
// that every entry still left in it is found under its own key, with its
// data, and that no key finds an entry stored for another key.
func TestTableGrow(t *testing.T) {
	for _, tc := range []struct {
		keyBits, slots, grown int
	}{
		{49, 10, 12}, // 6x7
		{49, 12, 16},
		{64, 20, 22}, // the smallest table of a 64-bit board
		{20, 8, 20},  // one entry per key
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.keyBits), uint64(tc.slots)))
		tb := newTable(tc.keyBits, tc.slots)
		type stored struct {
			key, entry uint64
		}
		var keys []stored
		seen := map[uint64]bool{}
		for range min(4<<tc.slots, 1<<16) {
			key := rng.Uint64() & tb.bmask
			if seen[key] {
				continue
			}
			seen[key] = true
			idx, tag := tb.slot(key)
			e := packEntry(tag, rng.IntN(8)-1, rng.IntN(65)-32, rng.IntN(65)-32)
			tb.e[idx] = e
			keys = append(keys, stored{key, e & (1<<20 - 1)})
		}
		g := tb.grow(tc.grown)
		if len(g.e) != 1<<tc.grown {
			t.Fatalf("%+v: grown table has %d entries", tc, len(g.e))
		}
		found := 0
		for _, k := range keys {
			idx, tag := tb.slot(k.key)
			inOld := tb.e[idx] != 0 && tb.e[idx]>>20 == tag
			gi, gtag := g.slot(k.key)
			inNew := g.e[gi] != 0 && g.e[gi]>>20 == gtag
			if inOld != inNew {
				t.Fatalf("%+v: key %#x in the table %v, after growing %v", tc, k.key, inOld, inNew)
			}
			if inNew {
				found++
				if tb.e[idx]&(1<<20-1) != k.entry || g.e[gi]&(1<<20-1) != k.entry {
					t.Fatalf("%+v: key %#x found with data of another key", tc, k.key)
				}
			}
		}
		if found == 0 || found > len(tb.e) {
			t.Fatalf("%+v: %d keys found in a table of %d entries", tc, found, len(tb.e))
		}
	}
}

// TestTableReset: reset empties a table, reusing its memory only when the
// size is unchanged.
func TestTableReset(t *testing.T) {
	tb := newTable(49, 10)
	tb.e[3] = 1
	mem := &tb.e[0]
	tb.reset(49, 10)
	if &tb.e[0] != mem || tb.e[3] != 0 {
		t.Fatal("reset to the same size did not clear the table in place")
	}
	tb.reset(49, 12)
	if len(tb.e) != 1<<12 || tb.slots != 12 || tb.shift != 37 {
		t.Fatalf("reset to 12 slot bits: %d entries, slots %d, shift %d", len(tb.e), tb.slots, tb.shift)
	}
}
