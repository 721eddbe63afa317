//go:build !unix

package main

import "testing"

// stopProcess skips the test: only Unix stops a process with a signal.
func stopProcess(t *testing.T, pid int) {
	t.Helper()
	t.Skipf("stopping process %d needs SIGSTOP (Unix)", pid)
}

// procrunFrozen: no cgroup freezer outside Linux.
func procrunFrozen(int) bool { return false }
