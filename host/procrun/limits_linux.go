package procrun

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// setRlimits sets the bot's resource limits on pid (the box's init, or
// the bot itself without a sandbox): RLIMIT_FSIZE, and RLIMIT_NPROC where
// the bot's uid is its own (ownUID): RLIMIT_NPROC counts every process of
// a real uid, so on a uid the bot shares with the host it would count the
// host's processes too.
func setRlimits(pid int, l Limits, ownUID bool) error {
	if l.FileSize > 0 {
		lim := unix.Rlimit{Cur: uint64(l.FileSize), Max: uint64(l.FileSize)}
		if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &lim, nil); err != nil {
			return fmt.Errorf("cap the bot's file size (RLIMIT_FSIZE): %w", err)
		}
	}
	if l.Pids > 0 && ownUID {
		lim := unix.Rlimit{Cur: uint64(l.Pids), Max: uint64(l.Pids)}
		if err := unix.Prlimit(pid, unix.RLIMIT_NPROC, &lim, nil); err != nil {
			return fmt.Errorf("limit the bot's tasks (RLIMIT_NPROC): %w", err)
		}
	}
	return nil
}

// DefaultMemoryCap is the memory cap a bot gets by default on this
// machine: DefaultMemory where a cgroup holds it (v2 memory.max, or a v1
// memory cgroup), else none: RLIMIT_AS caps address space, not memory
// used, and would stop a JVM or a solver that reserves a large table.
func DefaultMemoryCap() int64 {
	h := sharedHierarchy()
	if h.v2 != "" && (controllerOn(h.v2, "memory") || h.v1mem != "") {
		return DefaultMemory
	}
	return 0
}
