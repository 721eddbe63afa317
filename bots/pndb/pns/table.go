package pns

import (
	"math/bits"
	"unsafe"
)

// entry is one node of the DAG: one slot of the flat table.
type entry struct {
	key    uint64 // position hash ^ context salt (goal, attacker)
	pn, dn uint32
	best   int16  // expanded: the most-proving child move; decided: the best move, or -1
	forced int16  // the only child move (blocking a threat), or -1
	depth  uint16 // decided: plies to the best reachable leaf (fastest win, slowest loss)
	flags  uint8
	mark   uint8 // GC: the epoch of the last mark pass that reached the node
}

// Entry flags.
const (
	fUsed     uint8 = 1 << iota // the slot holds a node
	fExpanded                   // the node's children were generated
)

// BytesPerNode is the exact memory of one table slot. The table is one
// slice of Options.MemMiB MiB of slots (less a 1/64 scratch area).
const BytesPerNode = int(unsafe.Sizeof(entry{}))

// maxLoadNum/maxLoadDen is the fill of a shard at which it doubles, or, at
// its full size, at which the search collects: linear probing stays fast
// below it.
const (
	maxLoadNum = 4
	maxLoadDen = 5
)

// Shard sizes: a shard starts at minShard slots and doubles up to its
// region; there are at most maxShards shards.
const (
	minShard  = 256
	maxShards = 64
)

// table is an open-addressing hash table with linear probing over one
// fixed slice of entries, allocated once: nothing is allocated afterwards.
// The slice is split into shards (by the key's top bits), each owning a
// region; a shard uses a prefix of its region that doubles as it fills,
// so that a small search touches (and makes resident) little memory and
// keeps its entries close together.
type table struct {
	slots   []entry
	scratch []entry // a shard's entries while it doubles
	shards  []shard
	region  int  // slots per shard region
	shift   uint // shard index = key >> shift
	live    int  // used slots in all shards
}

type shard struct {
	base  int    // first slot of the region
	n     uint64 // slots in use: the prefix probed
	live  int
	limit int // live entries at which it doubles or is full
}

// newTable returns a table of about total slots (scratch included).
func newTable(total int) table {
	total = max(total, 2*minShard)
	s := maxShards
	for s > 1 && total/(s+1) < 4*minShard {
		s /= 2
	}
	region := total * maxLoadDen / (s*maxLoadDen + maxLoadNum) // s regions and a 4/5-region scratch
	t := table{
		slots:   make([]entry, s*region),
		scratch: make([]entry, region*maxLoadNum/maxLoadDen+1),
		shards:  make([]shard, s),
		region:  region,
		shift:   uint(64 - bits.TrailingZeros(uint(s))),
	}
	for i := range t.shards {
		t.shards[i] = shard{base: i * region}
		t.shards[i].resize(uint64(min(minShard, region)))
	}
	return t
}

func (h *shard) resize(n uint64) {
	h.n = n
	h.limit = int(n) * maxLoadNum / maxLoadDen
}

// shardOf returns the shard of key.
func (t *table) shardOf(key uint64) *shard {
	return &t.shards[int(key>>t.shift)&(len(t.shards)-1)]
}

// home is the first slot of sh probed for key (multiply-shift on the bits
// below the shard index: any shard size).
func home(sh *shard, key uint64) uint64 {
	hi, _ := bits.Mul64(key<<(bits.Len(maxShards)-1), sh.n)
	return hi
}

// find returns the entry of key, or nil.
func (t *table) find(key uint64) *entry {
	sh := t.shardOf(key)
	reg := t.slots[sh.base : sh.base+int(sh.n)]
	i := home(sh, key)
	for {
		e := &reg[i]
		if e.flags&fUsed == 0 {
			return nil
		}
		if e.key == key {
			return e
		}
		if i++; i == sh.n {
			i = 0
		}
	}
}

// insert returns the entry of key, creating it (zeroed but for the key,
// the used flag and forced/best = -1) if absent; created tells which. It
// returns nil when key is absent and its shard is full. Pointers stay
// valid until the next insert that grows a shard, sweep or reset.
func (t *table) insert(key uint64) (e *entry, created bool) {
	sh := t.shardOf(key)
	for {
		reg := t.slots[sh.base : sh.base+int(sh.n)]
		i := home(sh, key)
		for {
			e := &reg[i]
			if e.flags&fUsed == 0 {
				break
			}
			if e.key == key {
				return e, false
			}
			if i++; i == sh.n {
				i = 0
			}
		}
		if sh.live < sh.limit {
			reg[i] = entry{key: key, flags: fUsed, forced: -1, best: -1}
			sh.live++
			t.live++
			return &reg[i], true
		}
		if int(sh.n) >= t.region {
			return nil, false
		}
		t.grow(sh)
	}
}

// grow doubles the prefix of sh (up to its region) and re-places its
// entries through the scratch area.
func (t *table) grow(sh *shard) {
	reg := t.slots[sh.base : sh.base+int(sh.n)]
	k := 0
	for i := range reg {
		if reg[i].flags&fUsed != 0 {
			t.scratch[k] = reg[i]
			k++
		}
	}
	clear(reg)
	sh.resize(min(2*sh.n, uint64(t.region)))
	reg = t.slots[sh.base : sh.base+int(sh.n)]
	for _, e := range t.scratch[:k] {
		i := home(sh, e.key)
		for reg[i].flags&fUsed != 0 {
			if i++; i == sh.n {
				i = 0
			}
		}
		reg[i] = e
	}
}

// capacity is the number of slots of the table at its full size.
func (t *table) capacity() int { return len(t.slots) + len(t.scratch) }

// limit is the number of live entries the table holds at most.
func (t *table) limit() int { return len(t.shards) * (t.region * maxLoadNum / maxLoadDen) }

// reset empties the table.
func (t *table) reset() {
	for i := range t.shards {
		sh := &t.shards[i]
		clear(t.slots[sh.base : sh.base+int(sh.n)])
		sh.live = 0
	}
	t.live = 0
}

// sweep frees every used entry for which keep is false and re-places the
// others so that linear probing finds them again. It is one pass over the
// slots in use, shard by shard, allocating nothing. stop (if not nil) is
// asked between shards: when it says so the sweep ends there, the shards
// left keeping all their entries, and sweep returns false.
func (t *table) sweep(keep func(e *entry) bool, stop func() bool) bool {
	for s := range t.shards {
		if stop != nil && s > 0 && stop() {
			return false
		}
		sh := &t.shards[s]
		t.live -= sh.live
		reg := t.slots[sh.base : sh.base+int(sh.n)]
		// A slot empty before the sweep: no probe path crosses it, so the
		// re-placement below can start after it.
		start := uint64(0)
		for reg[start].flags&fUsed != 0 {
			start++
		}
		live := 0
		for i := range reg {
			e := &reg[i]
			if e.flags&fUsed == 0 {
				continue
			}
			if keep(e) {
				live++
			} else {
				*e = entry{}
			}
		}
		sh.live = live
		t.live += live
		if live == 0 {
			continue
		}
		// Re-place the survivors in slot order from there: each moves back
		// to the first free slot from its home, never past its own slot,
		// and the slots it probes are final already.
		for k := uint64(1); k <= sh.n; k++ {
			i := (start + k) % sh.n
			if reg[i].flags&fUsed == 0 {
				continue
			}
			e := reg[i]
			reg[i] = entry{}
			j := home(sh, e.key)
			for reg[j].flags&fUsed != 0 {
				if j++; j == sh.n {
					j = 0
				}
			}
			reg[j] = e
		}
	}
	return true
}
