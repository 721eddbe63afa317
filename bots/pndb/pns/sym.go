package pns

import "github.com/kinrow/kinrow/engine"

// Symmetry: the table is keyed by a canonical hash, the least of the
// Zobrist hashes of the position under each symmetry of the board (the 8
// of the dihedral group on square m,n,k boards, the 4 mirrors on
// rectangular ones, the left-right mirror on Connect-X), so that positions
// that are images of each other share one node. The searcher keeps one hash
// per symmetry of its working position, updated on every play and undo.
// Moves stored in an entry (best, forced) are in the frame of the canonical
// image: enc maps a move of the working position there, dec back.

// symmetry holds the transforms of one board and the hashes of the working
// position under each of them.
type symmetry struct {
	n     int       // number of transforms; 1: symmetry off
	moves []int16   // moves[t*nmove+m]: the image of move m under transform t
	keys  []uint64  // keys[(c*n+t)*2+col]: Zobrist key of col on the image of c under t, ^ SideKey
	inv   [8]uint8  // inv[t]: the inverse transform of t
	ncell int       // cells of the board
	nmove int       // moves of the board (cells, or columns for Connect-X)
	h     [8]uint64 // the working position's hash under each transform
}

// newSymmetry returns the symmetries of r (only the identity when off):
// the engine's (Rules.Symmetries), with the Zobrist keys of every image
// cell laid out for toggle.
func newSymmetry(r engine.Rules, on bool) symmetry {
	es := r.Symmetries()
	n := 1
	if on {
		n = es.Len()
	}
	y := symmetry{n: n, ncell: r.Cells(), nmove: r.MoveRange()}
	y.keys = make([]uint64, 2*n*y.ncell)
	y.moves = make([]int16, n*y.nmove)
	for t := 0; t < n; t++ {
		for c := 0; c < y.ncell; c++ {
			img := es.Cell(t, c)
			for col := engine.X; col <= engine.O; col++ {
				y.keys[(c*n+t)*2+int(col)] = engine.ZobristKey(img, col) ^ engine.SideKey
			}
		}
		for m := 0; m < y.nmove; m++ {
			y.moves[t*y.nmove+m] = int16(es.Move(t, engine.Move(m)))
		}
		y.inv[t] = uint8(es.Inverse(t))
	}
	return y
}

// set computes the hashes of pos under every transform.
func (y *symmetry) set(pos *engine.Position) {
	y.h = [8]uint64{}
	cols := pos.Rules().Cols
	for c := 0; c < y.ncell; c++ {
		col := pos.At(c/cols, c%cols)
		if col == engine.Empty {
			continue
		}
		keys := y.keys[c*y.n*2 : (c+1)*y.n*2]
		for t := 0; t < y.n; t++ {
			y.h[t] ^= keys[2*t+int(col)] ^ engine.SideKey // the stone's key alone
		}
	}
	if pos.ToMove() != engine.X {
		for t := 0; t < y.n; t++ {
			y.h[t] ^= engine.SideKey
		}
	}
}

// toggle puts a stone of colour col on cell, or takes it back, and
// switches the side to move.
func (y *symmetry) toggle(cell int, col engine.Color) {
	keys := y.keys[cell*y.n*2 : (cell+1)*y.n*2]
	for t := 0; t < y.n; t++ {
		y.h[t] ^= keys[2*t+int(col)]
	}
}

// canon returns the canonical key of hashes h[:n]: the least, mixed so
// that its bits are spread again (the table picks shards by the top bits).
// With symmetry off it is the hash itself.
func canon(h *[8]uint64, n int) (key uint64, t int) {
	if n == 1 {
		return h[0], 0
	}
	key = h[0]
	for u := 1; u < n; u++ {
		if h[u] < key {
			key, t = h[u], u
		}
	}
	key *= 0x9e3779b97f4a7c15
	return key ^ key>>29, t
}

// key returns the canonical key of the working position.
func (y *symmetry) key() uint64 {
	k, _ := canon(&y.h, y.n)
	return k
}

// child returns the canonical key of the working position after a stone of
// colour col on cell.
func (y *symmetry) child(cell int, col engine.Color) uint64 {
	if y.n == 1 {
		return y.h[0] ^ y.keys[int(col)+2*cell]
	}
	var h [8]uint64
	keys := y.keys[cell*y.n*2 : (cell+1)*y.n*2]
	for t := 0; t < y.n; t++ {
		h[t] = y.h[t] ^ keys[2*t+int(col)]
	}
	k, _ := canon(&h, y.n)
	return k
}

// enc maps a move of the working position (or -1) to the canonical frame.
func (y *symmetry) enc(m engine.Move) int16 {
	if m < 0 || y.n == 1 {
		return int16(m)
	}
	_, t := canon(&y.h, y.n)
	return y.moves[t*y.nmove+int(m)]
}

// dec maps a move of the canonical frame (or -1) to the working position.
func (y *symmetry) dec(v int16) engine.Move {
	if v < 0 || y.n == 1 {
		return engine.Move(v)
	}
	_, t := canon(&y.h, y.n)
	return engine.Move(y.moves[int(y.inv[t])*y.nmove+int(v)])
}
