//go:build !unix

package testcpu

import (
	"testing"
	"time"
)

// Self skips the test: this system has no getrusage.
func Self(t testing.TB) time.Duration {
	t.Helper()
	t.Skip("the process's CPU time is read with getrusage, which this system lacks")
	return 0
}
