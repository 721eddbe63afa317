package mics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func cmpCandidates(a, b Candidate) int {
	switch {
	case better(a, b):
		return -1
	case better(b, a):
		return 1
	}
	return 0
}

func TestHeapSelectAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 9, 10, 11, 100, 4900} {
		for _, l := range []int{0, 1, 2, 3, 10, 64, 5000} {
			for _, spread := range []int64{3, 1 << 40} { // many ties, few ties
				src := make([]Candidate, n)
				for i := range src {
					src[i] = Candidate{Key: rng.Int64N(spread) - spread/2, Cell: int32(rng.IntN(1 << 20))}
				}
				sorted := slices.Clone(src)
				slices.SortFunc(sorted, cmpCandidates)
				want := sorted[:min(l, n)]
				got := HeapSelect(make([]Candidate, 0, l), src, l)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d l=%d spread=%d: heap-select differs from the sort\n got %v\nwant %v", n, l, spread, got, want)
				}
			}
		}
	}
}

func TestHeapSelectAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	src := make([]Candidate, 4900)
	for i := range src {
		src[i] = Candidate{rng.Int64(), int32(i)}
	}
	dst := make([]Candidate, 0, 10)
	if a := testing.AllocsPerRun(20, func() { HeapSelect(dst, src, 10) }); a != 0 {
		t.Errorf("HeapSelect: %v allocations, want 0", a)
	}
}
