package boxinit

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
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

// TestFreshKeyring: after freshKeyring a thread's session keyring is a new
// one named SessionKeyring, not the one it had.
func TestFreshKeyring(t *testing.T) {
	type result struct {
		before, after int
		desc          string
		err           error
	}
	done := make(chan result)
	go func() {
		// The thread's keyring changes: it ends with this goroutine.
		runtime.LockOSThread()
		var r result
		if _, r.err = unix.KeyctlJoinSessionKeyring("kinrow-test-before"); r.err != nil {
			done <- r
			return
		}
		r.before, _ = unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, false)
		if r.err = freshKeyring(); r.err == nil {
			r.after, r.err = unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, false)
			r.desc, _ = unix.KeyctlString(unix.KEYCTL_DESCRIBE, r.after)
		}
		done <- r
	}()
	r := <-done
	if errors.Is(r.err, unix.ENOSYS) {
		t.Skipf("no keyrings here: %v", r.err)
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.after == r.before || !strings.HasSuffix(r.desc, ";"+SessionKeyring) {
		t.Errorf("session keyring %d (%q) after freshKeyring, %d before: want a new one named %s", r.after, r.desc, r.before, SessionKeyring)
	}
}
