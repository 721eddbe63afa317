//go:build unix

package procrun

import (
	"errors"
	"syscall"
)

// PIDAlive reports whether a process with this id exists (signal 0; one of
// another user answers EPERM, and counts as alive).
func PIDAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
