package solver

import "sync/atomic"

// busyTable marks the positions far from the end that some worker of a
// parallel search is searching (ABDADA, Weill 1996, simplified): a worker
// that meets such a position as a child after the first of a node
// searches its other children first, so that two workers split a node's
// children rather than both proving the same subtree, and comes back to
// it at the end, when the table most likely holds its bound. A mark is
// the position's key in a slot picked by its hash; a collision only loses
// a mark, which costs time, never exactness.
type busyTable [busySlots]atomic.Uint64

// busySlots: the marks live at the same time are at most the far nodes on
// the workers' paths, a few dozen.
const busySlots = 1 << 12

func busySlot(key uint64) uint64 { return (key * mixMul) >> (64 - 12) }

// enter marks key busy.
func (b *busyTable) enter(key uint64) { b[busySlot(key)].Store(key) }

// leave clears key's mark, unless another position took the slot.
func (b *busyTable) leave(key uint64) { b[busySlot(key)].CompareAndSwap(key, 0) }

// has reports whether key is marked.
func (b *busyTable) has(key uint64) bool { return b[busySlot(key)].Load() == key }

func (b *busyTable) clear() {
	for i := range b {
		b[i].Store(0)
	}
}
