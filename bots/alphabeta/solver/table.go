package solver

import "sync/atomic"

// table is a transposition table of the exact search: 2^k entries of one
// uint64 each, replaced always, holding a lower and an upper bound of the
// exact score and the best column found. A Solver has two (see nearMiB).
//
// Keys. key = cur + mask is unique per position and below 2^B with
// B = (rows+1)*cols: inside one column, mask is 2^m-1 (m stones) and cur a
// subset of it, so the column's part of the sum lies in [2^m-1, 2^(m+1)-2],
// never carries into the next column, and 1 + that part is 2^m + cur,
// which gives back m and cur.
//
// Soundness with partial keys. The slot and the stored tag come from
// x = mix(key), where mix(y) = ((y ^ y>>s) * M) mod 2^B with M odd.
// Both steps are bijections of [0, 2^B): an xor with a right shift of
// itself is inverted bit by bit from the top, and multiplication by an odd
// number is invertible modulo 2^B. The slot is the top k bits of x and the
// tag its low B-k bits, so (slot, tag) determines x and hence key: two
// different positions can never match one entry, and a hit always returns
// bounds proved for that very position. (This is the exact counterpart of
// Pons' Chinese-remainder argument, with a power-of-two table.)
//
// Entry: tag<<20 | (move+1)<<14 | (upper+64)<<7 | (lower+64). Scores lie in
// [-32, 32], so both bounds fit in 7 bits and are never 0, hence a valid
// entry is never 0, the empty value. B-k+20 <= 64 is guaranteed by giving
// the table at least 2^(B-44) entries.
type table struct {
	e     []uint64
	slots uint   // k
	shift uint   // B-k: tag bits
	xs    uint   // B/2
	bmask uint64 // 2^B-1
	tmask uint64 // 2^(B-k)-1
}

const mixMul = 0x9E3779B97F4A7C15

// nearMiB and nearDepth: the entries of positions with at most nearDepth
// empty cells go to a table of nearMiB, all others to the large table.
// Those positions are most of the nodes of a search, and a table probe is
// a random access: in one large table nearly every probe misses the CPU's
// caches, and on the shared 2-core machine a search ran at 7 M nodes/s
// with a 64 MiB table against 18 M with a 1 MiB one. The small table stays
// in the core's cache; the large one keeps the few positions near the root
// whose entries save whole subtrees. (Measured on 3 positions of
// Test_L1_R3: 80 M nodes in 10.9 s with one 64 MiB table, 108 M nodes in
// 6.2 s with one of 4 MiB, 90 M nodes in 4.9 s split at 18 empty cells.)
const (
	nearMiB   = 1
	nearDepth = 18
)

// growFill: the large table grows once growFill times as many positions as
// it has entries were stored in it since it last grew. Only the positions
// far from the end reach it, so it stays small on easy sets (measured on
// Test_L1_R1: 0.28 s with 1, 0.40 s with 1/8, for 0.2% more nodes).
const growFill = 1

// startMiB is the size a table starts at when its limit is larger: a run
// of easy positions then never pays for faulting in memory it does not
// need. The table grows (see grow) as searches fill it.
const startMiB = 2

// slotBits returns the number of slot bits of a table of at most mib MiB
// for keys of keyBits bits: as many 8-byte entries as fit, at least
// 2^(keyBits-44) so that a tag fits in an entry, at most 2^keyBits.
func slotBits(keyBits, mib int) int {
	k := 0
	for (uint64(8)<<uint(k+1)) <= uint64(mib)<<20 && k < 40 {
		k++
	}
	return min(max(k, keyBits-44), keyBits)
}

func newTable(keyBits, slots int) table {
	t := table{slots: uint(slots), shift: uint(keyBits - slots), xs: uint(keyBits / 2)}
	t.bmask = ^uint64(0) >> uint(64-keyBits)
	t.tmask = uint64(1)<<t.shift - 1
	t.e = make([]uint64, 1<<uint(slots))
	return t
}

// grow returns a table with more slots holding every entry of t. The mixed
// key x is the same in both tables; only its split into slot and tag
// moves, so each entry is rewritten at its exact new place (two entries of
// t never collide there: distinct slots of t differ in x's top bits).
func (t *table) grow(slots int) table {
	keyBits := int(t.slots + t.shift)
	n := newTable(keyBits, slots)
	for i, e := range t.e {
		if e == 0 {
			continue
		}
		x := uint64(i)<<t.shift | e>>20
		n.e[x>>n.shift] = (x&n.tmask)<<20 | e&(1<<20-1)
	}
	return n
}

// slot returns the index and tag of key.
func (t *table) slot(key uint64) (uint64, uint64) {
	x := ((key ^ key>>t.xs) * mixMul) & t.bmask
	return x >> (t.shift & 63), x & t.tmask
}

// reset empties t, giving it 2^slots entries for keys of keyBits bits; it
// reuses t's memory when the size is already that.
func (t *table) reset(keyBits, slots int) {
	if t.e != nil && int(t.slots) == slots && int(t.slots+t.shift) == keyBits {
		clear(t.e)
		return
	}
	*t = newTable(keyBits, slots)
}

// load reads entry idx. The large table is shared by the threads of a
// parallel search, so its entries are read and written whole, atomically
// (a plain load on amd64 and arm64); an entry is self-checking (its tag),
// so whatever entry a racing store left is valid for the position it
// names.
func (t *table) load(idx uint64) uint64 { return atomic.LoadUint64(&t.e[idx]) }

// store writes entry idx: atomically when shared (the large table),
// plainly in a worker's own small table.
func (t *table) store(idx, e uint64, shared bool) {
	if shared {
		atomic.StoreUint64(&t.e[idx], e)
		return
	}
	t.e[idx] = e
}

func packEntry(tag uint64, move, lo, hi int) uint64 {
	return tag<<20 | uint64(move+1)<<14 | uint64(hi+64)<<7 | uint64(lo+64)
}
