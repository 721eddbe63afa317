//go:build unix

package main

import (
	"syscall"
	"testing"

	"github.com/kinrow/kinrow/host/procrun"
)

func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// stopProcess stops process pid with SIGSTOP, as a bot frozen by its
// author or a debugger would be.
func stopProcess(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
}

func procrunDetect() string { return procrun.Detect().String() }

// logText is what the host has written on its stderr so far.
func (h *host) logText() string {
	w := h.cmd.Stderr.(*syncWriter)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.String()
}

// procrunFrozen reports whether process pid is in a frozen cgroup (how
// the host suspends a bot where cgroups serve).
func procrunFrozen(pid int) bool { return procrun.Frozen(pid) }
