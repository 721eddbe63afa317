package boxinit

import (
	"bytes"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFilterEncoding: a program comes back as it went, and what is not a
// program is refused with what is accepted.
func TestFilterEncoding(t *testing.T) {
	prog := []unix.SockFilter{{Code: 0x20, K: 4}, {Code: 0x15, Jt: 1, Jf: 2, K: 0xc000003e}, {Code: 0x06, K: 0x7fff0000}}
	got, err := DecodeFilter(EncodeFilter(prog))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(prog) {
		t.Fatalf("%d instructions back, want %d", len(got), len(prog))
	}
	for i := range prog {
		if got[i] != prog[i] {
			t.Errorf("instruction %d: %+v, want %+v", i, got[i], prog[i])
		}
	}
	for _, bad := range [][]byte{nil, {1, 2, 3}, make([]byte, 8*4097)} {
		if _, err := DecodeFilter(bad); err == nil {
			t.Errorf("%d bytes decoded, want refused", len(bad))
		}
	}
}

// FuzzDecodeFilter: any bytes decode or are refused, without a panic, and
// a decoded program encodes back to the same bytes.
func FuzzDecodeFilter(f *testing.F) {
	f.Add(EncodeFilter([]unix.SockFilter{{Code: 0x06, K: 0x7fff0000}}))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		prog, err := DecodeFilter(b)
		if err != nil {
			return
		}
		if back := EncodeFilter(prog); !bytes.Equal(back, b) {
			t.Errorf("%x decoded and encoded is %x", b, back)
		}
	})
}
