package match

import (
	"errors"
	"fmt"
	"os"
)

// ErrOutLocked is returned by Run when another run holds the --out file:
// one writer per records file (two runs on one file would both pass the
// empty-file check, or both resume, and write every game twice).
var ErrOutLocked = errors.New("another kinrow run is writing it")

// lockOut takes the exclusive lock of the records file f for as long as it
// is open (flock on Unix, LockFileEx on Windows); a run that finds it held
// is refused at once, naming the holder's pid where the system tells it
// (Linux). Files that are not regular (/dev/null, a pipe) are not locked:
// nothing reads them back.
func lockOut(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("--out %s: %w", f.Name(), err)
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	held, err := tryLock(f)
	if err != nil {
		return fmt.Errorf("--out %s: lock: %w", f.Name(), err)
	}
	if !held {
		return nil
	}
	who := "another process"
	if pid := lockHolder(f); pid > 0 {
		who = fmt.Sprintf("process %d", pid)
	}
	return fmt.Errorf("--out %s: %w: %s holds its lock; wait for it to end, or name another file (each shard writes its own)", f.Name(), ErrOutLocked, who)
}
