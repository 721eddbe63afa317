package solver

// htable is the table of the depth-limited search (BestMove).
type htable struct{ e []uint64 }

func (h *htable) clear() { clear(h.e) }
