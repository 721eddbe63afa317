//go:build windows

package match

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive LockFileEx lock on a byte far past any
// records (so readers of the records are not blocked) without waiting;
// held reports that another handle holds it.
func tryLock(f *os.File) (held bool, err error) {
	ol := windows.Overlapped{Offset: 0xfffffffe, OffsetHigh: 0x7fffffff}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return true, nil
	}
	return false, err
}
