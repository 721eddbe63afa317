// Package seccomp is the system-call filter of a bot's box: Docker's
// default deny list and a little more, assembled into seccomp-bpf for
// the machine's architecture with github.com/elastic/go-seccomp-bpf and
// loaded by the box's init (host/procrun/boxinit) on the thread that
// executes the bot, after no_new_privs and just before the execve.
//
// The policy allows every call but those that reach kernel state shared
// with the host or another box, widen the box, or are attack surface a
// game-playing program never needs: keyrings, namespaces (unshare,
// setns, clone with a CLONE_NEW* flag; clone3, whose flags a filter
// cannot read, fails with ENOSYS so libc and Go fall back to clone),
// mounts, ptrace and cross-process memory, io_uring, bpf,
// perf_event_open, userfaultfd, kernel modules, kexec, the clock, swap,
// reboot, quotas, file handles, the kernel log, unusual personalities,
// vsock sockets, and every call of another architecture's ABI (i386 or
// x32 on amd64, arm on arm64). Denied calls fail with EPERM. File locks
// (flock, and fcntl's F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW)
// succeed without taking a lock: a lock on a file every box sees (a
// system file, a read path) would be a channel between two bots and
// could block the host, and a program that locks its own files (SQLite,
// Python, the JVM) carries on as if alone.
//
// The package is Linux-only; elsewhere there is no box to filter.
package seccomp
