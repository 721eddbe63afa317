//go:build unix

package testcpu

import (
	"syscall"
	"testing"
	"time"
)

// Self returns the CPU time (user and system) the test process has used.
func Self(t testing.TB) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
