package wide

// centreOrder returns the columns centre first, then alternately right
// and left of it.
func centreOrder(cols int) []int32 {
	o := make([]int32, cols)
	for i := range cols {
		o[i] = int32(cols/2 + (1-2*(i%2))*(i+1)/2)
	}
	return o
}

// winNow returns a column where the side to move wins at once, or -1.
func (s *Searcher) winNow() int {
	b := s.b
	w := b.win[b.ply&1]
	for c := 0; c < b.cols; c++ {
		if h := b.height[c]; h < b.rows && w[c]>>uint(h)&1 != 0 {
			return c
		}
	}
	return -1
}

// moves fills s.mv[ply] with the columns worth searching, centre first,
// and returns a column where the side to move wins at once (or -1) and
// how many moves there are. Without a win: if the opponent threatens to
// win at a playable cell the only move is to block it (none with two
// threats); and no move goes right under a cell where the opponent would
// win. No move at all means every move loses at once.
func (s *Searcher) moves(ply int) (winCol, n int) {
	b := s.b
	me := b.ply & 1
	mine, theirs := b.win[me], b.win[me^1]
	s.buffers(ply)
	mv := s.mv[ply][:0]
	forced, forcedOK := 0, false
	for _, c32 := range s.order {
		c := int(c32)
		h := b.height[c]
		if h >= b.rows {
			continue
		}
		if mine[c]>>uint(h)&1 != 0 {
			return c, 0
		}
		under := h+1 < b.rows && theirs[c]>>uint(h+1)&1 != 0
		if theirs[c]>>uint(h)&1 != 0 {
			forced++
			if forced == 1 {
				mv = append(mv[:0], c32)
				forcedOK = !under
			}
			continue
		}
		if forced == 0 && !under {
			mv = append(mv, c32)
		}
	}
	switch {
	case forced > 1 || (forced == 1 && !forcedOK):
		mv = mv[:0]
	case forced == 1:
		mv = mv[:1]
	}
	s.mv[ply] = mv
	return -1, len(mv)
}

// Ordering keys: the table's move first, then by winning cells created,
// then by window gain (see windows.orderKey: at most 4k windows of weight
// below 2^41 each, so far below threatKey).
const (
	ttKey     = int64(1) << 62
	threatKey = int64(1) << 52
)

// sortMoves orders s.mv[ply] best first (see the package doc), stably so
// that the centre comes first among equals.
func (s *Searcher) sortMoves(ply, ttCol int) {
	b := s.b
	me := b.ply & 1
	mv := s.mv[ply]
	keys := s.keys[ply][:len(mv)]
	for i, c32 := range mv {
		c := int(c32)
		var key int64
		if c == ttCol {
			key = ttKey
		} else {
			key = b.windows.orderKey(me, c, b.height[c])
		}
		j := i
		for j > 0 && keys[j-1] < key {
			keys[j], mv[j] = keys[j-1], mv[j-1]
			j--
		}
		keys[j], mv[j] = key, c32
	}
}

// buffers makes sure the per-ply move lists reach ply.
func (s *Searcher) buffers(ply int) {
	for len(s.mv) <= ply {
		s.mv = append(s.mv, make([]int32, 0, s.b.cols))
		s.keys = append(s.keys, make([]int64, s.b.cols))
	}
}
