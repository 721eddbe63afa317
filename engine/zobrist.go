package engine

// zobristSeed separates kinrow's Zobrist keys from other uses of the mixer.
const zobristSeed = 0x6b696e726f77 // "kinrow"

// ZobristKey returns the Zobrist key of a stone of colour c on cell. Keys are
// computed by a SplitMix64 finaliser rather than read from a table, so every
// board size shares them, nothing is allocated and the same position hashes
// the same in every process.
func ZobristKey(cell int, c Color) uint64 {
	z := zobristSeed + uint64(cell)<<1 + uint64(c) + 1
	z *= 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// SideKey is XORed into the hash when O is to move.
const SideKey uint64 = 0x8a5cd789635d2dff
