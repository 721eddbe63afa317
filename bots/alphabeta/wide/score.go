package wide

// Internal values. A proven score sc (package doc) is fromScore(sc):
// mate + sc for a win, -mate + sc for a loss, 0 for a draw; heuristic
// values lie within ±evalMax, strictly between the losses and the wins, so
// one alpha-beta orders both. Exact searches only ever see fromScore
// values.
const mate int32 = 1 << 28

// inf is beyond every value.
const inf int32 = 1 << 30

// fromScore maps a proven score to its internal value.
func fromScore(sc int) int32 {
	switch {
	case sc > 0:
		return mate + int32(sc)
	case sc < 0:
		return -mate + int32(sc)
	}
	return 0
}

// toScore maps an internal value back to a score: the proven score, or 0
// for a draw or a heuristic value.
func toScore(v int32) int {
	switch {
	case v > mate:
		return int(v - mate)
	case v < -mate:
		return int(v + mate)
	}
	return 0
}

// clamp32 returns v bounded to [lo, hi].
func clamp32(v, lo, hi int32) int32 { return min(max(v, lo), hi) }
