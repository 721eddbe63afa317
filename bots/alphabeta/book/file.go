package book

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// The magics of the two versions of the format: KRBOOK1 holds scores
// only, KRBOOK2 a move and a weak flag per position too, and says whether
// the book is full or a strategy (see the package doc).
const (
	magic  = "KRBOOK1\n"
	magic2 = "KRBOOK2\n"
)

// headerSize is the size of version 1's header: magic, rows, cols, k,
// plies, n; headerSize2 version 2's: magic, rows, cols, k, plies, kind, 3
// reserved bytes, n.
const (
	headerSize  = len(magic) + 4 + 4
	headerSize2 = len(magic2) + 8 + 4
)

// maxEntries caps the entries a file may claim (a 4 GiB file).
const maxEntries = 1 << 28

// The info byte of an entry (version 2): the move in its low 7 bits
// (noMove for none), weakBit when the score is only a sign.
const (
	noMove  = 0x7f
	weakBit = 0x80
)

// ErrFormat marks a file that is not a valid book.
var ErrFormat = errors.New("not a kinrow book")

// Book holds what is known of positions of one board, keyed by Fold: an
// exact score (or only its sign, weak) and, in a strategy book, a best
// move. It is read-only once made and safe for concurrent use.
type Book struct {
	Geometry
	// Plies: in a full book, every position of at most Plies stones whose
	// game is not over is in the book; in a strategy book, no position
	// holds more than Plies stones.
	Plies int
	// Strategy: the book holds the positions a strategy reaches (a best
	// move at each of them, every reply of the other side expanded), not
	// every position up to Plies.
	Strategy bool
	version  int // of the file format: 1 or 2
	keys     []uint64
	scores   []int8
	info     []uint8 // version 2: move | weakBit
}

// Entry is what a book holds of one position.
type Entry struct {
	// Score for the side to move: exact, or only its sign (1 win, 0
	// draw, -1 loss) when Weak.
	Score int
	Weak  bool
	// Move is a best move (0-based column, in the orientation of the
	// position asked for by Move, of the folded key by Get), -1 for none.
	Move int
}

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.keys) }

// Version returns the version of the file format the book is written in.
func (b *Book) Version() int { return b.version }

// Score returns the exact score of the position after cols (0-based
// columns), for its side to move, and whether the book holds it (a weak
// entry is not an exact score: see Move).
func (b *Book) Score(cols []int) (int, bool) {
	if len(cols) > b.Plies {
		return 0, false
	}
	bd, err := Play(b.Geometry, cols)
	if err != nil {
		return 0, false
	}
	return b.Lookup(bd.Fold())
}

// Lookup returns the exact score stored under a folded key.
func (b *Book) Lookup(key uint64) (int, bool) {
	e, ok := b.Get(key)
	if !ok || e.Weak {
		return 0, false
	}
	return e.Score, true
}

// Get returns the entry stored under a folded key, its move in the
// orientation of the folded key.
func (b *Book) Get(key uint64) (Entry, bool) {
	i, ok := slices.BinarySearch(b.keys, key)
	if !ok {
		return Entry{}, false
	}
	e := Entry{Score: int(b.scores[i]), Move: -1}
	if b.info != nil {
		e.Weak = b.info[i]&weakBit != 0
		if m := int(b.info[i] &^ weakBit); m != noMove {
			e.Move = m
		}
	}
	return e, true
}

// Move returns the book's move of the position after cols (0-based
// columns) with its score, when the book holds one: the move is mirrored
// when the position's key is its mirror image's.
func (b *Book) Move(cols []int) (Entry, bool) {
	if len(cols) > b.Plies {
		return Entry{}, false
	}
	bd, err := Play(b.Geometry, cols)
	if err != nil {
		return Entry{}, false
	}
	return b.MoveAt(bd)
}

// MoveAt is Move for a board.
func (b *Book) MoveAt(bd Board) (Entry, bool) {
	key := bd.Fold()
	e, ok := b.Get(key)
	if !ok || e.Move < 0 {
		return Entry{}, false
	}
	if bd.Key() != key {
		e.Move = b.Cols - 1 - e.Move
	}
	return e, true
}

// New returns a full book (format version 1) of g up to plies from a map
// of folded keys to exact scores.
func New(g Geometry, plies int, scores map[uint64]int) (*Book, error) {
	entries := make(map[uint64]Entry, len(scores))
	for k, s := range scores {
		entries[k] = Entry{Score: s, Move: -1}
	}
	b, err := newBook(g, plies, false, entries)
	if err != nil {
		return nil, err
	}
	b.version, b.info = 1, nil
	return b, nil
}

// NewEntries returns a book (format version 2) of g from a map of folded
// keys to entries, their moves in the orientation of the key; strategy
// says whether it holds a strategy rather than every position up to
// plies.
func NewEntries(g Geometry, plies int, strategy bool, entries map[uint64]Entry) (*Book, error) {
	return newBook(g, plies, strategy, entries)
}

func newBook(g Geometry, plies int, strategy bool, entries map[uint64]Entry) (*Book, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if plies < 0 || plies > g.Cells() || plies > 255 {
		return nil, fmt.Errorf("book: plies %d: want 0..%d", plies, min(g.Cells(), 255))
	}
	b := &Book{Geometry: g, Plies: plies, Strategy: strategy, version: 2, keys: make([]uint64, 0, len(entries)),
		scores: make([]int8, len(entries)), info: make([]uint8, len(entries))}
	for k := range entries {
		b.keys = append(b.keys, k)
	}
	slices.Sort(b.keys)
	lim := g.Cells()/2 + 1
	for i, k := range b.keys {
		e := entries[k]
		if e.Score < -lim || e.Score > lim || (e.Weak && (e.Score < -1 || e.Score > 1)) {
			return nil, fmt.Errorf("book: key %#x: score %d out of range -%d..%d (-1..1 when weak)", k, e.Score, lim, lim)
		}
		if e.Move < -1 || e.Move >= g.Cols {
			return nil, fmt.Errorf("book: key %#x: move %d: want a column 0..%d or -1", k, e.Move, g.Cols-1)
		}
		b.scores[i] = int8(e.Score)
		b.info[i] = noMove
		if e.Move >= 0 {
			b.info[i] = uint8(e.Move)
		}
		if e.Weak {
			b.info[i] |= weakBit
		}
	}
	return b, nil
}

// WriteTo writes the book in its file format (see the package doc), of
// the version it was made or read in.
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	var buf []byte
	if b.version == 1 {
		buf = make([]byte, 0, headerSize+9*len(b.keys)+4)
		buf = append(buf, magic...)
		buf = append(buf, byte(b.Rows), byte(b.Cols), byte(b.K), byte(b.Plies))
	} else {
		buf = make([]byte, 0, headerSize2+10*len(b.keys)+4)
		buf = append(buf, magic2...)
		kind := byte(0)
		if b.Strategy {
			kind = 1
		}
		buf = append(buf, byte(b.Rows), byte(b.Cols), byte(b.K), byte(b.Plies), kind, 0, 0, 0)
	}
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(b.keys)))
	for _, k := range b.keys {
		buf = binary.LittleEndian.AppendUint64(buf, k)
	}
	for _, s := range b.scores {
		buf = append(buf, byte(s))
	}
	if b.version != 1 {
		buf = append(buf, b.info...)
	}
	buf = binary.LittleEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
	n, err := w.Write(buf)
	if err != nil {
		return int64(n), fmt.Errorf("book: write: %w", err)
	}
	return int64(n), nil
}

// WriteFile writes the book to path atomically: to a temporary file beside
// it, synced, then renamed over path.
func (b *Book) WriteFile(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("book: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := b.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("book: sync %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("book: close %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	return nil
}

// Parse reads a book from its bytes (either version of the format),
// checking everything: the magic, a board package solver holds, the size
// the header claims, the checksum, keys strictly increasing, scores within
// the board's range (-1..1 when weak), moves on the board, the reserved
// bytes zero.
func Parse(data []byte) (*Book, error) {
	version, hsize, per := 0, 0, 0
	switch {
	case len(data) >= headerSize+4 && bytes.Equal(data[:len(magic)], []byte(magic)):
		version, hsize, per = 1, headerSize, 9
	case len(data) >= headerSize2+4 && bytes.Equal(data[:len(magic2)], []byte(magic2)):
		version, hsize, per = 2, headerSize2, 10
	default:
		return nil, fmt.Errorf("%w: want a file that starts with %q (at least %d bytes) or %q (at least %d bytes)",
			ErrFormat, magic[:len(magic)-1], headerSize+4, magic2[:len(magic2)-1], headerSize2+4)
	}
	h := data[len(magic):hsize]
	g := Geometry{Rows: int(h[0]), Cols: int(h[1]), K: int(h[2])}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	plies := int(h[3])
	if plies > g.Cells() {
		return nil, fmt.Errorf("%w: plies %d past the %d cells of the board", ErrFormat, plies, g.Cells())
	}
	strategy := false
	if version == 2 {
		if h[4] > 1 || h[5] != 0 || h[6] != 0 || h[7] != 0 {
			return nil, fmt.Errorf("%w: kind %d and reserved bytes %d %d %d: want kind 0 (full) or 1 (strategy) and zeros", ErrFormat, h[4], h[5], h[6], h[7])
		}
		strategy = h[4] == 1
	}
	n := int(binary.LittleEndian.Uint32(h[len(h)-4:]))
	if n > maxEntries || len(data) != hsize+per*n+4 {
		return nil, fmt.Errorf("%w: the header claims %d entries (%d bytes), the file has %d bytes", ErrFormat, n, hsize+per*n+4, len(data))
	}
	body := data[:len(data)-4]
	if got, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, the file says %08x: the file is damaged", ErrFormat, got, want)
	}
	b := &Book{Geometry: g, Plies: plies, Strategy: strategy, version: version, keys: make([]uint64, n), scores: make([]int8, n)}
	lim := g.Cells()/2 + 1
	keys := body[hsize:]
	scores := body[hsize+8*n:]
	if version == 2 {
		b.info = bytes.Clone(body[hsize+9*n:])
	}
	for i := range n {
		b.keys[i] = binary.LittleEndian.Uint64(keys[8*i:])
		if i > 0 && b.keys[i] <= b.keys[i-1] {
			return nil, fmt.Errorf("%w: entry %d: keys not strictly increasing", ErrFormat, i)
		}
		s := int8(scores[i])
		if int(s) < -lim || int(s) > lim {
			return nil, fmt.Errorf("%w: entry %d: score %d out of range -%d..%d", ErrFormat, i, s, lim, lim)
		}
		b.scores[i] = s
		if version == 2 {
			in := b.info[i]
			if m := int(in &^ weakBit); m != noMove && m >= g.Cols {
				return nil, fmt.Errorf("%w: entry %d: move %d past the %d columns", ErrFormat, i, m, g.Cols)
			}
			if in&weakBit != 0 && (s < -1 || s > 1) {
				return nil, fmt.Errorf("%w: entry %d: weak score %d: want -1, 0 or 1", ErrFormat, i, s)
			}
		}
	}
	return b, nil
}

// ReadFile reads the book at path.
func ReadFile(path string) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	b, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("book %s: %w", path, err)
	}
	return b, nil
}
