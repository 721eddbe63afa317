package wide

import "github.com/kinrow/kinrow/engine"

// zpair holds a cell's two Zobrist keys for one side: k1 picks the table
// slot, k2 is the verification tag stored in the entry. They come from
// independent streams, so a wrong match needs both 64-bit sums to collide.
type zpair struct{ k1, k2 uint64 }

// The empty board's keys: nonzero, so that an empty table entry (key 0)
// never matches it.
const (
	keySeed1 = 0x243F6A8885A308D3
	keySeed2 = 0x13198A2E03707344
)

// newZobrist returns the keys of cells cells, two sides each, drawn by
// splitmix64 from a fixed seed: every Board of a size has the same keys.
// splitmix64 is a bijection of its counter, so no two keys are equal.
func newZobrist(cells int) []zpair {
	z := make([]zpair, 2*cells)
	st := uint64(0xD1B54A32D192ED03)
	for i := range z {
		z[i].k1 = engine.SplitMix64(&st)
		z[i].k2 = engine.SplitMix64(&st)
	}
	return z
}
