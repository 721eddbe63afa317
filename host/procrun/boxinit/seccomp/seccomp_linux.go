package seccomp

import (
	"fmt"
	"sync"
	"unsafe"

	esec "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"github.com/kinrow/kinrow/host/procrun/boxinit"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Denied are the calls the filter refuses with EPERM whatever their
// arguments: Docker's default deny list (for a process without
// capabilities) and a few more. Names the architecture does not have are
// left out of its filter (arm64 has no iopl, no create_module...).
func Denied() []string {
	return []string{
		// Keyrings: shared with the host and every box of the same user.
		"keyctl", "add_key", "request_key",
		// Kernel attack surface a game never needs.
		"bpf", "perf_event_open", "userfaultfd",
		"io_uring_setup", "io_uring_enter", "io_uring_register",
		// Namespaces and mounts: the box stays as the host built it.
		"setns", "mount", "umount2", "umount", "pivot_root", "chroot",
		"move_mount", "open_tree", "fsopen", "fsmount", "fspick", "fsconfig", "mount_setattr",
		// Other processes' memory.
		"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
		// The machine's kernel, clock, swap, quotas and log.
		"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
		"create_module", "get_kernel_syms", "query_module",
		"acct", "swapon", "swapoff", "reboot", "quotactl", "quotactl_fd", "lookup_dcookie", "syslog",
		"settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "stime",
		"sethostname", "setdomainname", "vhangup", "nfsservctl", "iopl", "ioperm",
		"uselib", "ustat", "sysfs", "_sysctl", "vm86", "vm86old",
		"open_by_handle_at", "name_to_handle_at", "fanotify_init",
	}
}

// NamespaceFlags are the clone and unshare flags that make a namespace.
const NamespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// Personalities are the personality(2) arguments allowed (Docker's):
// Linux, Linux with 32-bit addresses, UNAME26 with either, and the query.
func Personalities() []uint64 { return []uint64{0, 0x8, 0x20000, 0x20008, 0xffffffff} }

// LockCommands are fcntl's commands that take or drop a lock: they
// succeed without effect.
func LockCommands() []uint64 {
	return []uint64{unix.F_SETLK, unix.F_SETLKW, unix.F_OFD_SETLK, unix.F_OFD_SETLKW}
}

// actionNoop is the filter's "succeed without effect" (SECCOMP_RET_ERRNO
// with errno 0: the call returns 0 and is not made). The library turns
// an errno of 0 into EPERM, so its groups use this stand-in, replaced in
// the assembled program.
const actionNoop = esec.ActionErrno | esec.Action(0xffff)

// errno is SECCOMP_RET_ERRNO with e.
func errno(e unix.Errno) esec.Action { return esec.ActionErrno | esec.Action(e) }

// above32 matches an argument with any of its high 32 bits set: the
// kernel reads fcntl's command and socket's domain as 32-bit ints, so
// such a value would pass an equality test and act as its low half.
var above32 = esec.Condition{Operation: esec.GreaterThan, Value: 0xffffffff}

// Policy is the filter as go-seccomp-bpf's policy for this machine's
// architecture (allow by default; the groups in order).
func Policy() (esec.Policy, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return esec.Policy{}, fmt.Errorf("seccomp filter: %w (accepted: amd64, arm64, 386, arm)", err)
	}
	var denied []string
	for _, n := range Denied() {
		if _, ok := info.SyscallNames[n]; ok {
			denied = append(denied, n)
		}
	}
	arg := func(i uint32, op esec.Operation, v uint64) esec.ArgumentConditions {
		return esec.ArgumentConditions{{Argument: i, Operation: op, Value: v}}
	}
	personality := esec.ArgumentConditions{}
	for _, v := range Personalities() {
		personality = append(personality, esec.Condition{Argument: 0, Operation: esec.NotEqual, Value: v})
	}
	perm := []esec.NameWithConditions{
		{Name: "clone", Conditions: arg(0, esec.BitsSet, NamespaceFlags)},
		{Name: "unshare", Conditions: arg(0, esec.BitsSet, NamespaceFlags|unix.CLONE_NEWTIME)},
		{Name: "personality", Conditions: personality},
		{Name: "socket", Conditions: arg(0, esec.Equal, unix.AF_VSOCK)},
		{Name: "socket", Conditions: esec.ArgumentConditions{above32}},
	}
	noop := []esec.NameWithConditions{{Name: "fcntl", Conditions: esec.ArgumentConditions{{Argument: 1, Operation: above32.Operation, Value: above32.Value}}}}
	for _, c := range LockCommands() {
		noop = append(noop, esec.NameWithConditions{Name: "fcntl", Conditions: arg(1, esec.Equal, c)})
	}
	return esec.Policy{
		DefaultAction: esec.ActionAllow,
		Syscalls: []esec.SyscallGroup{
			{Names: denied, NamesWithCondtions: perm, Action: errno(unix.EPERM)},
			{Names: []string{"clone3"}, Action: errno(unix.ENOSYS)},
			{Names: []string{"flock"}, NamesWithCondtions: noop, Action: actionNoop},
		},
	}, nil
}

// auditArch is the architecture a call of the native ABI is made under.
func auditArch() (uint32, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return 0, err
	}
	return uint32(info.ID), nil
}

// Instructions is the filter as BPF: a call of another architecture's
// ABI kills the process (the library would let it through to the
// default action), then the policy.
func Instructions() ([]bpf.Instruction, error) {
	p, err := Policy()
	if err != nil {
		return nil, err
	}
	native, err := auditArch()
	if err != nil {
		return nil, err
	}
	body, err := p.Assemble()
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: assemble: %w", err)
	}
	prog := make([]bpf.Instruction, 0, len(body)+3)
	prog = append(prog,
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: native, SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_KILL_PROCESS},
	)
	for _, in := range body {
		if r, ok := in.(bpf.RetConstant); ok && r.Val == uint32(actionNoop) {
			in = bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO}
		}
		prog = append(prog, in)
	}
	return prog, nil
}

// Program is the filter assembled for the kernel.
func Program() ([]unix.SockFilter, error) {
	insts, err := Instructions()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: assemble: %w", err)
	}
	out := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		out[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return out, nil
}

// Available says whether this kernel can load the filter: seccomp-bpf
// with the actions it returns (SECCOMP_GET_ACTION_AVAIL, Linux 4.14), and
// a program this architecture has a policy for.
func Available() error {
	for _, a := range []uint32{unix.SECCOMP_RET_KILL_PROCESS, unix.SECCOMP_RET_ERRNO, unix.SECCOMP_RET_ALLOW} {
		act := a
		_, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&act)))
		if e != 0 {
			return fmt.Errorf("seccomp filter: the kernel lacks action %#x (seccomp-bpf of Linux 4.14): %w", a, e)
		}
	}
	_, err := Program()
	return err
}

// compiled is the filter for Config.Filter and why there is none, made
// once per process: a fact about the machine.
var compiled = sync.OnceValues(func() ([]byte, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	prog, err := Program()
	if err != nil {
		return nil, err
	}
	return boxinit.EncodeFilter(prog), nil
})

// Compiled is the filter as boxinit.Config.Filter carries it to the box's
// init, assembled once per host process; nil where this machine cannot
// load it (KernelStatus says why).
func Compiled() []byte {
	b, _ := compiled()
	return b
}

// KernelStatus are the parts of the sandbox the box's init adds against
// the kernel's shared state, for the host's account of the sandbox:
// those in force, and those missing with why.
func KernelStatus() (parts, missing []string) {
	parts = []string{"own session keyring"}
	if _, err := compiled(); err != nil {
		return parts, []string{err.Error()}
	}
	return append([]string{"seccomp filter"}, parts...), nil
}
