package match

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// One writer per records file: a second open of a held --out is refused
// with ErrOutLocked, resume or not; once the first closes, it is free; a
// file that is not regular (/dev/null) is never locked.
func TestOpenOutLocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	first, err := openOut(path, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, resume := range []bool{false, true} {
		if f, err := openOut(path, resume); !errors.Is(err, ErrOutLocked) {
			if f != nil {
				f.Close()
			}
			t.Errorf("resume=%v: a second open of a held --out: %v, want ErrOutLocked", resume, err)
		}
	}
	first.Close()
	again, err := openOut(path, true)
	if err != nil {
		t.Errorf("after the first run closed it: %v", err)
	} else {
		again.Close()
	}
	if _, err := os.Stat(os.DevNull); err == nil {
		a, errA := openOut(os.DevNull, false)
		b, errB := openOut(os.DevNull, false)
		if errA != nil || errB != nil {
			t.Errorf("%s twice: %v, %v", os.DevNull, errA, errB)
		}
		for _, f := range []*os.File{a, b} {
			if f != nil {
				f.Close()
			}
		}
	}
}
