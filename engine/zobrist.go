package engine

// zobristSeed separates kinrow's Zobrist keys from other uses of the mixer.
const zobristSeed = 0x6b696e726f77 // "kinrow"

// golden is SplitMix64's increment, 2^64 divided by the golden ratio.
const golden = 0x9e3779b97f4a7c15

// Mix64 is SplitMix64's finaliser: a bijection of 64-bit words that spreads
// every input bit over the output.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// SplitMix64 advances the generator's state and returns its next output:
// the one SplitMix64 of kinrow (Zobrist keys here, the bots' key tables).
func SplitMix64(state *uint64) uint64 {
	*state += golden
	return Mix64(*state)
}

// ZobristKey returns the Zobrist key of a stone of colour c on cell. Keys are
// computed by a SplitMix64 finaliser rather than read from a table, so every
// board size shares them, nothing is allocated and the same position hashes
// the same in every process.
func ZobristKey(cell int, c Color) uint64 {
	return Mix64((zobristSeed + uint64(cell)<<1 + uint64(c) + 1) * golden)
}

// SideKey is XORed into the hash when O is to move.
const SideKey uint64 = 0x8a5cd789635d2dff
