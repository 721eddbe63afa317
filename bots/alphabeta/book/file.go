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

// magic opens every book file.
const magic = "KRBOOK1\n"

// headerSize is the size of the header: magic, rows, cols, k, plies, n.
const headerSize = len(magic) + 4 + 4

// maxEntries caps the entries a file may claim (a 4 GiB file).
const maxEntries = 1 << 28

// ErrFormat marks a file that is not a valid book.
var ErrFormat = errors.New("not a kinrow book")

// Book holds the exact scores of the positions of one board up to Plies
// stones, keyed by Fold. It is read-only once made and safe for concurrent
// use.
type Book struct {
	Geometry
	// Plies: every position of at most Plies stones whose game is not over
	// is in the book.
	Plies  int
	keys   []uint64
	scores []int8
}

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.keys) }

// Score returns the score of the position after cols (0-based columns),
// for its side to move, and whether the book holds it.
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

// Lookup returns the score stored under a folded key.
func (b *Book) Lookup(key uint64) (int, bool) {
	i, ok := slices.BinarySearch(b.keys, key)
	if !ok {
		return 0, false
	}
	return int(b.scores[i]), true
}

// New returns a book of g up to plies from a map of folded keys to scores.
func New(g Geometry, plies int, scores map[uint64]int) (*Book, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if plies < 0 || plies > g.Cells() || plies > 255 {
		return nil, fmt.Errorf("book: plies %d: want 0..%d", plies, min(g.Cells(), 255))
	}
	b := &Book{Geometry: g, Plies: plies, keys: make([]uint64, 0, len(scores)), scores: make([]int8, len(scores))}
	for k := range scores {
		b.keys = append(b.keys, k)
	}
	slices.Sort(b.keys)
	lim := g.Cells()/2 + 1
	for i, k := range b.keys {
		s := scores[k]
		if s < -lim || s > lim {
			return nil, fmt.Errorf("book: key %#x: score %d out of range -%d..%d", k, s, lim, lim)
		}
		b.scores[i] = int8(s)
	}
	return b, nil
}

// WriteTo writes the book in its file format (see the package doc).
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, 0, headerSize+9*len(b.keys)+4)
	buf = append(buf, magic...)
	buf = append(buf, byte(b.Rows), byte(b.Cols), byte(b.K), byte(b.Plies))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(b.keys)))
	for _, k := range b.keys {
		buf = binary.LittleEndian.AppendUint64(buf, k)
	}
	for _, s := range b.scores {
		buf = append(buf, byte(s))
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

// Parse reads a book from its bytes, checking everything: the magic, a
// board package solver holds, the size the header claims, the checksum,
// keys strictly increasing and scores within the board's range.
func Parse(data []byte) (*Book, error) {
	if len(data) < headerSize+4 || !bytes.Equal(data[:len(magic)], []byte(magic)) {
		return nil, fmt.Errorf("%w: want a file that starts with %q and holds at least %d bytes", ErrFormat, magic[:len(magic)-1], headerSize+4)
	}
	h := data[len(magic):]
	g := Geometry{Rows: int(h[0]), Cols: int(h[1]), K: int(h[2])}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	plies := int(h[3])
	if plies > g.Cells() {
		return nil, fmt.Errorf("%w: plies %d past the %d cells of the board", ErrFormat, plies, g.Cells())
	}
	n := int(binary.LittleEndian.Uint32(h[4:8]))
	if n > maxEntries || len(data) != headerSize+9*n+4 {
		return nil, fmt.Errorf("%w: the header claims %d entries (%d bytes), the file has %d bytes", ErrFormat, n, headerSize+9*n+4, len(data))
	}
	body := data[:len(data)-4]
	if got, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, the file says %08x: the file is damaged", ErrFormat, got, want)
	}
	b := &Book{Geometry: g, Plies: plies, keys: make([]uint64, n), scores: make([]int8, n)}
	lim := g.Cells()/2 + 1
	keys := body[headerSize:]
	scores := body[headerSize+8*n:]
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
