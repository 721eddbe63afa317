package gtp

import (
	"io"
	"testing"
)

func BenchmarkParseLine(b *testing.B) {
	for _, bm := range []struct{ name, line string }{
		{"clean", "42 play x c3"},
		{"messy", "42\tplay  x\tc3\r # comment\r\n"},
		{"noargs", "quit"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := ParseLine(bm.line); !ok {
					b.Fatal("not parsed")
				}
			}
		})
	}
}

func BenchmarkWriterSuccess(b *testing.B) {
	c := Command{ID: 42, HasID: true, Name: "genmove"}
	for _, bm := range []struct{ name, text string }{
		{"short", "c3"},
		{"board", "\n   A B C\n 3 . . . 3\n\n 2 . x . 2\n 1 . . o 1\n   A B C\n"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			w := NewWriter(io.Discard)
			for b.Loop() {
				if err := w.Success(c, bm.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReader(b *testing.B) {
	b.ReportAllocs()
	r := NewReader(&repeatReader{data: []byte("42 play x c3 # comment\r\n")})
	for b.Loop() {
		if _, err := r.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// repeatReader repeats data forever.
type repeatReader struct {
	data []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.data[r.off:])
		n += k
		r.off = (r.off + k) % len(r.data)
	}
	return n, nil
}
