package quick

// entry is one slot of the transposition table: the position's key (0:
// empty slot), its value (relative to the node for wins and losses, see
// toTable), the depth it was searched to, the kind of bound, whether the
// value rests on a heuristic leaf, and the best column (+1; 0 for none).
type entry struct {
	key   uint64
	value int32
	depth uint8
	flag  uint8
	heur  bool
	move  uint8
}

// The kinds of bound an entry holds.
const (
	exact uint8 = iota + 1
	lower
	upper
)

// mixMul spreads keys over the table (a 64-bit odd constant).
const mixMul = 0x9E3779B97F4A7C15

// table is a transposition table of a power of two entries: one entry a
// slot, always replaced.
type table struct {
	e     []entry
	shift uint
}

// newTable returns a table of at most mib MiB (at least 1024 entries),
// every page of it touched.
func newTable(mib int) table {
	n := 1024
	for n*2*16 <= mib<<20 {
		n *= 2
	}
	t := table{e: make([]entry, n), shift: 64}
	for ; n > 1; n >>= 1 {
		t.shift--
	}
	// A fresh allocation is mapped lazily; a write to each page maps it
	// now rather than during a move (4 KiB pages: 256 entries).
	for i := 0; i < len(t.e); i += 256 {
		t.e[i] = entry{}
	}
	return t
}

func (t *table) slot(key uint64) *entry { return &t.e[(key*mixMul)>>t.shift] }

func (t *table) clear() { clear(t.e) }

// toTable stores a win or loss as its distance from the node (v is
// relative to the root, ply the node's distance from it); other values
// as they are.
func toTable(v, ply int) int32 {
	switch {
	case v > proven:
		return int32(v + ply)
	case v < -proven:
		return int32(v - ply)
	}
	return int32(v)
}

// fromTable is toTable's inverse.
func fromTable(v int32, ply int) int {
	switch {
	case int(v) > proven:
		return int(v) - ply
	case int(v) < -proven:
		return int(v) + ply
	}
	return int(v)
}
