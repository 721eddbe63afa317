package mics

// Candidate is a cell with its ranking key: higher keys are better, equal
// keys rank the lower cell first.
type Candidate struct {
	Key  int64
	Cell int32
}

// better reports whether a ranks before b.
func better(a, b Candidate) bool {
	return a.Key > b.Key || a.Key == b.Key && a.Cell < b.Cell
}

// HeapSelect returns the best l candidates of src, best first, written into
// dst[:0]. It keeps a heap of the l best seen so far with the worst on top, so
// each of the n candidates costs O(1) when it does not enter and O(log l) when
// it does: O(n log l) in all, then O(l log l) to order the winners. With
// cap(dst) ≥ l nothing is allocated.
func HeapSelect(dst, src []Candidate, l int) []Candidate {
	h := dst[:0]
	if l <= 0 {
		return h
	}
	i := 0
	for ; i < len(src) && len(h) < l; i++ {
		h = append(h, src[i])
		siftUp(h, len(h)-1)
	}
	if len(h) == 0 {
		return h
	}
	// The heap is full: a candidate enters only if better than its worst.
	low := h[0]
	for _, c := range src[i:] {
		if c.Key < low.Key || c.Key == low.Key && c.Cell >= low.Cell {
			continue
		}
		h[0] = c
		siftDown(h, 0)
		low = h[0]
	}
	return sortHeap(h)
}

// pushTop offers c to the heap h of at most l candidates.
func pushTop(h []Candidate, l int, c Candidate) []Candidate {
	if len(h) < l {
		h = append(h, c)
		siftUp(h, len(h)-1)
	} else if l > 0 && better(c, h[0]) {
		h[0] = c
		siftDown(h, 0)
	}
	return h
}

// siftUp restores the heap (worst on top) after h[i] was set.
func siftUp(h []Candidate, i int) {
	c := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], c) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = c
}

// siftDown restores the heap (worst on top) after h[i] was set.
func siftDown(h []Candidate, i int) {
	n := len(h)
	c := h[i]
	for {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j+1 < n && better(h[j], h[j+1]) {
			j++ // the worse child
		}
		if !better(c, h[j]) {
			break
		}
		h[i] = h[j]
		i = j
	}
	h[i] = c
}

// sortHeap turns the heap h into a list, best first, in place: the worst is
// moved to the end, then the worst of the rest, and so on.
func sortHeap(h []Candidate) []Candidate {
	for end := len(h) - 1; end > 0; end-- {
		h[0], h[end] = h[end], h[0]
		siftDown(h[:end], 0)
	}
	return h
}
