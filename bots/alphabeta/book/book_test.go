package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// small boards the solver proves in milliseconds.
var small = []struct {
	g     Geometry
	plies int
}{
	{Geometry{Rows: 4, Cols: 5, K: 4}, 5},
	{Geometry{Rows: 4, Cols: 4, K: 3}, 6},
	{Geometry{Rows: 3, Cols: 5, K: 3}, 4},
}

// Every entry of a built book equals the solver's own score of its
// position, at every depth (the shallower ones are derived, not solved).
func TestBuildEqualsSolver(t *testing.T) {
	for _, tc := range small {
		b, err := Build(context.Background(), Options{Geometry: tc.g, Plies: tc.plies, Jobs: 2, TTMiB: 4})
		if err != nil {
			t.Fatalf("%v: %v", tc.g, err)
		}
		levels, err := enumerate(tc.g, tc.plies)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := solver.New(tc.g.Rows, tc.g.Cols, tc.g.K, 4)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for d, l := range levels {
			for key, seq := range l {
				p, _ := replay(sv, tc.g, seq)
				want, err := sv.Solve(context.Background(), p, false)
				if err != nil {
					t.Fatal(err)
				}
				got, ok := b.Lookup(key)
				if !ok || got != want {
					t.Errorf("%v: %s (ply %d): book %d (held %v), solver %d", tc.g, FormatCols(seqCols(seq)), d, got, ok, want)
				}
				// The position and its mirror read the same.
				cols := seqCols(seq)
				mir := make([]int, len(cols))
				for i, c := range cols {
					mir[i] = tc.g.Cols - 1 - c
				}
				if s, ok := b.Score(mir); !ok || s != want {
					t.Errorf("%v: mirror of %s: %d (%v), want %d", tc.g, FormatCols(cols), s, ok, want)
				}
				n++
			}
		}
		if n != b.Len() {
			t.Errorf("%v: book holds %d positions, the enumeration %d", tc.g, b.Len(), n)
		}
	}
}

// A book written and read back is the same book; a file of another size,
// a damaged byte, unsorted keys or a score out of range are refused.
func TestFileRoundTripAndDamage(t *testing.T) {
	g := Geometry{Rows: 4, Cols: 4, K: 3}
	b, err := Build(context.Background(), Options{Geometry: g, Plies: 4, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "b.book")
	if err := b.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	r, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Geometry != g || r.Plies != 4 || r.Len() != b.Len() {
		t.Fatalf("read back %+v plies %d len %d, wrote %+v plies 4 len %d", r.Geometry, r.Plies, r.Len(), g, b.Len())
	}
	for i, k := range b.keys {
		if s, ok := r.Lookup(k); !ok || s != int(b.scores[i]) {
			t.Fatalf("key %x: read %d (%v), wrote %d", k, s, ok, b.scores[i])
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	reseal := func(d []byte) []byte {
		binary.LittleEndian.PutUint32(d[len(d)-4:], crc32.ChecksumIEEE(d[:len(d)-4]))
		return d
	}
	n := b.Len()
	cases := map[string][]byte{
		"empty":      {},
		"bad magic":  append([]byte("KRBOOK2\n"), data[8:]...),
		"truncated":  data[:len(data)-1],
		"bit flip":   func() []byte { d := bytes.Clone(data); d[headerSize+3] ^= 1; return d }(),
		"big board":  reseal(func() []byte { d := bytes.Clone(data); d[8], d[9] = 9, 9; return d }()),
		"plies":      reseal(func() []byte { d := bytes.Clone(data); d[11] = 200; return d }()),
		"unsorted":   reseal(func() []byte { d := bytes.Clone(data); copy(d[headerSize:], d[headerSize+8:headerSize+16]); return d }()),
		"score 100":  reseal(func() []byte { d := bytes.Clone(data); d[headerSize+8*n] = 100; return d }()),
		"count lies": reseal(func() []byte { d := bytes.Clone(data); d[12]++; return d }()),
	}
	for name, d := range cases {
		if _, err := Parse(d); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Parse = %v, want ErrFormat", name, err)
		}
	}
}

// A build stopped part way keeps what it proved in its journal; the next
// run solves only the rest (a torn last line is cut) and makes the same
// book as a build in one go.
func TestBuildResumes(t *testing.T) {
	g := Geometry{Rows: 4, Cols: 5, K: 4}
	const plies = 5
	whole, err := Build(context.Background(), Options{Geometry: g, Plies: plies, Jobs: 1, TTMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(t.TempDir(), "b.journal")
	ctx, cancel := context.WithCancel(context.Background())
	stopAt := 0
	_, err = Build(ctx, Options{Geometry: g, Plies: plies, Jobs: 1, TTMiB: 2, Journal: journal, Progress: func(done, total int) {
		stopAt = total / 3
		if done >= stopAt {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped build: %v, want context.Canceled", err)
	}
	f, err := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("1f2e3") // torn: no newline
	f.Close()
	first := -1
	again, err := Build(context.Background(), Options{Geometry: g, Plies: plies, Jobs: 2, TTMiB: 2, Journal: journal, Progress: func(done, total int) {
		if first < 0 {
			first = done
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if first < stopAt {
		t.Errorf("resumed build started at %d proven, want at least the %d of the stopped one", first, stopAt)
	}
	if again.Len() != whole.Len() {
		t.Fatalf("resumed book has %d positions, whole %d", again.Len(), whole.Len())
	}
	for i, k := range whole.keys {
		if s, ok := again.Lookup(k); !ok || s != int(whole.scores[i]) {
			t.Fatalf("key %x: resumed %d (%v), whole %d", k, s, ok, whole.scores[i])
		}
	}
	// A journal of another build is refused.
	if _, err := Build(context.Background(), Options{Geometry: g, Plies: plies - 1, Journal: journal}); err == nil {
		t.Error("a journal of 5 plies resumed a build of 4")
	}
}

func FuzzParse(f *testing.F) {
	b, err := Build(context.Background(), Options{Geometry: Geometry{Rows: 4, Cols: 4, K: 3}, Plies: 3, Jobs: 1, TTMiB: 2})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(magic))
	sb, err := BuildStrategy(context.Background(), StrategyOptions{Geometry: Geometry{Rows: 4, Cols: 4, K: 3}, XPlies: 2, OPlies: 3, Jobs: 1, TTMiB: 2})
	if err != nil {
		f.Fatal(err)
	}
	buf.Reset()
	if _, err := sb.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(magic2))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		// What parses writes back to the same bytes.
		var out bytes.Buffer
		if _, err := r.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("parsed and written back differs")
		}
	})
}
