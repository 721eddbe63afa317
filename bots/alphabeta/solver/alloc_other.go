//go:build !linux

package solver

// allocTable returns n zeroed uint64 for a transposition table.
func allocTable(n int, owner *Solver) []uint64 { return make([]uint64, n) }
