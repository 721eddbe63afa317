package wide

// table is the transposition table: buckets of two 16-byte entries. The
// first key picks the bucket; an entry matches only if it stores the
// second, independent 64-bit key whole, so a wrong position is returned
// only if both keys of two positions collide (about 2^-64 per probe).
// The first entry of a bucket keeps the deepest recent search, the second
// whatever came last.
type table struct {
	e    []entry
	mask uint64 // bucket index mask, times two
	age  uint8  // search generation: entries of older ones are replaced first
}

// entry is one stored bound. key 0 is empty (the Board's keys start from a
// nonzero seed, so a real key 0 is as unlikely as any collision).
type entry struct {
	key   uint64
	val   int32
	move  int8 // best column, -1 if none
	depth uint8
	flags uint8 // lower, upper (both: exact), heur
	age   uint8
}

const (
	lower uint8 = 1 << iota // val is a lower bound
	upper                   // val is an upper bound
	heur                    // val rests on a horizon leaf: valid at depth only
)

// DefaultTTMiB is the table size New uses for ttMiB <= 0.
const DefaultTTMiB = 64

// newTable returns a table of at most mib MiB (at least one bucket).
func newTable(mib int) table {
	n := uint64(2)
	for n*2*16 <= uint64(mib)<<20 {
		n *= 2
	}
	return table{e: make([]entry, n), mask: (n - 1) &^ 1}
}

// probe returns the entry of the position with keys k1, k2, or nil.
func (t *table) probe(k1, k2 uint64) *entry {
	i := k1 & t.mask
	if e := &t.e[i]; e.key == k2 {
		return e
	}
	if e := &t.e[i+1]; e.key == k2 {
		return e
	}
	return nil
}

// store records a bound of the position with keys k1, k2.
func (t *table) store(k1, k2 uint64, val int32, move, depth int, flags uint8) {
	i := k1 & t.mask
	n := entry{key: k2, val: val, move: int8(move), depth: uint8(min(depth, 255)), flags: flags, age: t.age}
	a, b := &t.e[i], &t.e[i+1]
	switch {
	case a.key == k2:
		*a = n
	case b.key == k2:
		*b = n
	case a.age != t.age || n.depth >= a.depth:
		*b = *a
		*a = n
	default:
		*b = n
	}
}

// clear empties the table.
func (t *table) clear() { clear(t.e) }
