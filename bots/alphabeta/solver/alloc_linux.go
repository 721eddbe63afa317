//go:build linux

package solver

import (
	"runtime"
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// allocTable returns n zeroed uint64 for a transposition table. On Linux
// a table of at least a huge page is mapped outside the Go heap, aligned
// to 2 MiB and advised as transparent huge pages: random probes then miss
// the TLB far less (a large win under virtualisation, where a page walk is
// two-dimensional). owner's cleanup unmaps it. Falls back to make.
func allocTable(n int, owner *Solver) []uint64 {
	size := n * 8
	if size < hugePage {
		return make([]uint64, n)
	}
	mem, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]uint64, n)
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	off := int((hugePage - base%hugePage) % hugePage)
	region := mem[off : off+size]
	_ = syscall.Madvise(region, 14) // MADV_HUGEPAGE; advice only, errors ignored
	t := unsafe.Slice((*uint64)(unsafe.Pointer(&region[0])), n)
	runtime.AddCleanup(owner, func(m []byte) { _ = syscall.Munmap(m) }, mem)
	return t
}
