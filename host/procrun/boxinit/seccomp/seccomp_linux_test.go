package seccomp

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/elastic/go-seccomp-bpf/arch"
	"github.com/kinrow/kinrow/host/procrun/boxinit"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// childEnv makes the test binary the filtered child of TestFilterLoaded.
const childEnv = "KINROW_SECCOMP_TEST_CHILD"

func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		filteredChild(v == "filter")
	}
	os.Exit(m.Run())
}

// probe is one call the filtered child makes; it returns the errno (0 for
// success) and may say more.
type probe struct {
	name string
	call func() (unix.Errno, string)
}

func sys(nr uintptr, a ...uintptr) unix.Errno {
	var v [6]uintptr
	copy(v[:], a)
	_, _, e := unix.Syscall6(nr, v[0], v[1], v[2], v[3], v[4], v[5])
	return e
}

// heldLocks counts the lines of /proc/locks about inode ino.
func heldLocks(ino uint64) int {
	b, _ := os.ReadFile("/proc/locks")
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, ":"+strconv.FormatUint(ino, 10)+" ") {
			n++
		}
	}
	return n
}

// lockProbe takes a lock on a fresh file with take and reports whether
// /proc/locks shows it.
func lockProbe(take func(fd int) unix.Errno) (unix.Errno, string) {
	f, err := os.CreateTemp("", "kinrow-lock")
	if err != nil {
		return unix.EIO, err.Error()
	}
	defer os.Remove(f.Name())
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return unix.EIO, err.Error()
	}
	e := take(int(f.Fd()))
	return e, fmt.Sprintf("held=%d", heldLocks(st.Ino))
}

func setlk(cmd uint64) func(fd int) unix.Errno {
	return func(fd int) unix.Errno {
		lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0}
		return sys(unix.SYS_FCNTL, uintptr(fd), uintptr(cmd), uintptr(unsafe.Pointer(&lk)))
	}
}

// probes are what the filtered child tries; the parent checks each.
func probes() []probe {
	none := "/nonexistent-kinrow-seccomp-test"
	p := func(s string) uintptr { b, _ := unix.BytePtrFromString(s); return uintptr(unsafe.Pointer(b)) }
	var uring [120]byte
	return []probe{
		{"getpid", func() (unix.Errno, string) { return sys(unix.SYS_GETPID), "" }},
		{"keyctl", func() (unix.Errno, string) {
			return sys(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(0xfffffffd), 0), "" // KEY_SPEC_SESSION_KEYRING
		}},
		{"add_key", func() (unix.Errno, string) {
			return sys(unix.SYS_ADD_KEY, p("user"), p("x"), p("y"), 1, uintptr(0xfffffffd)), ""
		}},
		{"request_key", func() (unix.Errno, string) { return sys(unix.SYS_REQUEST_KEY, p("user"), p("x"), 0, 0), "" }},
		{"io_uring_setup", func() (unix.Errno, string) {
			return sys(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&uring[0]))), ""
		}},
		{"bpf", func() (unix.Errno, string) { return sys(unix.SYS_BPF, 0, 0, 0), "" }},
		{"perf_event_open", func() (unix.Errno, string) {
			return sys(unix.SYS_PERF_EVENT_OPEN, 0, 0, ^uintptr(0), ^uintptr(0), 0), ""
		}},
		{"userfaultfd", func() (unix.Errno, string) { return sys(unix.SYS_USERFAULTFD, 0), "" }},
		{"unshare(CLONE_NEWUSER)", func() (unix.Errno, string) { return sys(unix.SYS_UNSHARE, unix.CLONE_NEWUSER), "" }},
		{"unshare(CLONE_NEWNS)", func() (unix.Errno, string) { return sys(unix.SYS_UNSHARE, unix.CLONE_NEWNS), "" }},
		{"unshare(0)", func() (unix.Errno, string) { return sys(unix.SYS_UNSHARE, 0), "" }},
		{"setns", func() (unix.Errno, string) { return sys(unix.SYS_SETNS, ^uintptr(0), 0), "" }},
		{"clone(CLONE_NEWUSER)", func() (unix.Errno, string) {
			pid, _, e := unix.RawSyscall6(unix.SYS_CLONE, unix.CLONE_NEWUSER|uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
			if e == 0 && pid == 0 {
				unix.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0) // the child, had the filter let it be
			}
			if e == 0 {
				var ws unix.WaitStatus
				_, _ = unix.Wait4(int(pid), &ws, 0, nil)
			}
			return e, ""
		}},
		{"clone3", func() (unix.Errno, string) { return sys(unix.SYS_CLONE3, 0, 0), "" }},
		{"fork and exec", func() (unix.Errno, string) {
			if err := exec.Command("/bin/true").Run(); err != nil {
				return unix.EIO, err.Error()
			}
			return 0, ""
		}},
		{"mount", func() (unix.Errno, string) { return sys(unix.SYS_MOUNT, p("none"), p(none), p("tmpfs"), 0, 0), "" }},
		{"umount2", func() (unix.Errno, string) { return sys(unix.SYS_UMOUNT2, p(none), 0), "" }},
		{"pivot_root", func() (unix.Errno, string) { return sys(unix.SYS_PIVOT_ROOT, p(none), p(none)), "" }},
		{"ptrace", func() (unix.Errno, string) { return sys(unix.SYS_PTRACE, unix.PTRACE_PEEKUSR, 0, 0, 0), "" }},
		{"process_vm_readv", func() (unix.Errno, string) { return sys(unix.SYS_PROCESS_VM_READV, 0, 0, 0, 0, 0, 0), "" }},
		{"personality(query)", func() (unix.Errno, string) {
			_, _, e := unix.Syscall(unix.SYS_PERSONALITY, 0xffffffff, 0, 0)
			return e, ""
		}},
		{"personality(ADDR_NO_RANDOMIZE)", func() (unix.Errno, string) { return sys(unix.SYS_PERSONALITY, 0x0040000), "" }},
		{"socket(AF_VSOCK)", func() (unix.Errno, string) { return sys(unix.SYS_SOCKET, unix.AF_VSOCK, unix.SOCK_STREAM, 0), "" }},
		{"socket(AF_UNIX)", func() (unix.Errno, string) {
			fd, _, e := unix.Syscall(unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
			if e == 0 {
				unix.Close(int(fd))
			}
			return e, ""
		}},
		{"flock", func() (unix.Errno, string) {
			return lockProbe(func(fd int) unix.Errno { return sys(unix.SYS_FLOCK, uintptr(fd), unix.LOCK_EX) })
		}},
		{"fcntl(F_SETLK)", func() (unix.Errno, string) { return lockProbe(setlk(unix.F_SETLK)) }},
		{"fcntl(F_SETLKW)", func() (unix.Errno, string) { return lockProbe(setlk(unix.F_SETLKW)) }},
		{"fcntl(F_OFD_SETLK)", func() (unix.Errno, string) { return lockProbe(setlk(unix.F_OFD_SETLK)) }},
		{"fcntl(F_SETLK, high bits)", func() (unix.Errno, string) { return lockProbe(setlk(1<<32 | unix.F_SETLK)) }},
		{"fcntl(F_GETFD)", func() (unix.Errno, string) { return sys(unix.SYS_FCNTL, 0, unix.F_GETFD), "" }},
	}
}

// filteredChild loads the filter on the main thread (unless told not to:
// the test's control), makes every probe's call on it and prints "NAME:
// ERRNO NOTE" lines; it never returns.
func filteredChild(filter bool) {
	runtime.LockOSThread()
	prog, err := Program()
	if err == nil && filter {
		if err = unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err == nil {
			err = boxinit.LoadFilter(boxinit.EncodeFilter(prog))
		}
	}
	if err != nil {
		fmt.Printf("load: %v\n", err)
		os.Exit(1)
	}
	for _, pr := range probes() {
		e, note := pr.call()
		fmt.Printf("%s: %d %s\n", pr.name, int(e), note)
	}
	os.Exit(0)
}

// TestFilterLoaded runs the test binary again with the filter loaded and
// checks what each call did: denied with EPERM or ENOSYS, or allowed, or
// (locks) succeeded without holding a lock.
func TestFilterLoaded(t *testing.T) {
	if err := Available(); err != nil {
		t.Skipf("no seccomp filter here: %v", err)
	}
	got := childProbes(t, "filter")
	control := childProbes(t, "none")
	errno := func(e unix.Errno) string { return strconv.Itoa(int(e)) }
	denied := func(e unix.Errno) func(string) bool {
		return func(s string) bool { return strings.Fields(s + " x")[0] == errno(e) }
	}
	allowed := func(s string) bool {
		f := strings.Fields(s + " x")[0]
		return f != errno(unix.EPERM) && f != errno(unix.ENOSYS)
	}
	succeeded := func(s string) bool { return strings.Fields(s + " x")[0] == "0" }
	noLock := func(s string) bool { return s == "0 held=0" }
	want := map[string]func(string) bool{
		"getpid": succeeded, "keyctl": denied(unix.EPERM), "add_key": denied(unix.EPERM),
		"request_key": denied(unix.EPERM), "io_uring_setup": denied(unix.EPERM), "bpf": denied(unix.EPERM),
		"perf_event_open": denied(unix.EPERM), "userfaultfd": denied(unix.EPERM),
		"unshare(CLONE_NEWUSER)": denied(unix.EPERM), "unshare(CLONE_NEWNS)": denied(unix.EPERM), "unshare(0)": succeeded,
		"setns": denied(unix.EPERM), "clone(CLONE_NEWUSER)": denied(unix.EPERM), "clone3": denied(unix.ENOSYS),
		"fork and exec": succeeded, "mount": denied(unix.EPERM), "umount2": denied(unix.EPERM),
		"pivot_root": denied(unix.EPERM), "ptrace": denied(unix.EPERM), "process_vm_readv": denied(unix.EPERM),
		"personality(query)": succeeded, "personality(ADDR_NO_RANDOMIZE)": denied(unix.EPERM),
		"socket(AF_VSOCK)": denied(unix.EPERM), "socket(AF_UNIX)": allowed,
		"flock": noLock, "fcntl(F_SETLK)": noLock, "fcntl(F_SETLKW)": noLock, "fcntl(F_OFD_SETLK)": noLock,
		"fcntl(F_SETLK, high bits)": noLock, "fcntl(F_GETFD)": succeeded,
	}
	// The calls the filter lets through as they are.
	unfiltered := map[string]bool{"getpid": true, "unshare(0)": true, "fork and exec": true,
		"personality(query)": true, "socket(AF_UNIX)": true, "fcntl(F_GETFD)": true}
	for _, pr := range probes() {
		ok, has := want[pr.name]
		if !has {
			t.Errorf("probe %s has no expectation", pr.name)
			continue
		}
		if g, seen := got[pr.name]; !seen || !ok(g) {
			t.Errorf("%s under the filter: %q (errno, note)", pr.name, g)
		}
		// Without the filter a denied call must do something else, or
		// its probe proves nothing.
		if c := control[pr.name]; !unfiltered[pr.name] && ok(c) {
			t.Errorf("%s without the filter: %q, the same as under it", pr.name, c)
		}
	}
}

// childProbes runs the test binary again as the filtered child (the
// filter loaded or not, as mode says) and returns its answers by name.
func childProbes(t *testing.T, mode string) map[string]string {
	t.Helper()
	cmd := exec.Command("/proc/self/exe", "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child (filter: %s): %v\n%s", mode, err, out)
	}
	t.Logf("filter %s:\n%s", mode, out)
	got := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if name, rest, ok := strings.Cut(sc.Text(), ": "); ok {
			got[name] = strings.TrimSpace(rest)
		}
	}
	return got
}

// run evaluates the filter on one call as the kernel would, in x/net/bpf's
// machine (which loads words big-endian: each 32-bit field of
// seccomp_data is written so).
func run(t *testing.T, vm *bpf.VM, auditArch uint32, nr int, args ...uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[0:], uint32(nr))
	binary.BigEndian.PutUint32(data[4:], auditArch)
	for i, a := range args {
		off := 16 + 8*i
		binary.BigEndian.PutUint32(data[off:], uint32(a))       // the low half first: a little-endian machine
		binary.BigEndian.PutUint32(data[off+4:], uint32(a>>32)) // then the high half
	}
	r, err := vm.Run(data)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(r)
}

// TestFilterRules evaluates the assembled filter on every call it names
// (those a live test cannot make safely: kexec, reboot, modules, swap...),
// on calls of foreign ABIs, and on allowed calls.
func TestFilterRules(t *testing.T) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("the test lays out seccomp_data for a little-endian machine")
	}
	insts, err := Instructions()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Program(); err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(insts)
	if err != nil {
		t.Fatal(err)
	}
	info, err := arch.GetInfo("")
	if err != nil {
		t.Fatal(err)
	}
	native := uint32(info.ID)
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		noop   = unix.SECCOMP_RET_ERRNO
		kill   = unix.SECCOMP_RET_KILL_PROCESS
	)
	denied := 0
	for _, name := range Denied() {
		nr, ok := info.SyscallNames[name]
		if !ok {
			continue
		}
		denied++
		if got := run(t, vm, native, nr); got != eperm {
			t.Errorf("%s: %#x, want EPERM (%#x)", name, got, eperm)
		}
	}
	for _, name := range Denied() {
		known := false
		for _, a := range []*arch.Info{arch.X86_64, arch.AARCH64, arch.I386, arch.ARM} {
			_, ok := a.SyscallNames[name]
			known = known || ok
		}
		if !known {
			t.Errorf("denied call %s is no architecture's", name)
		}
	}
	if denied < 50 {
		t.Errorf("only %d of the denied calls exist on %s", denied, info.Name)
	}
	nr := func(name string) int {
		n, ok := info.SyscallNames[name]
		if !ok {
			t.Fatalf("no %s on %s", name, info.Name)
		}
		return n
	}
	threadFlags := uint64(unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_SYSVSEM | unix.CLONE_THREAD)
	for _, tc := range []struct {
		name string
		arch uint32
		nr   int
		args []uint64
		want uint32
	}{
		{"read", native, nr("read"), nil, allow},
		{"futex", native, nr("futex"), nil, allow},
		{"clone a thread", native, nr("clone"), []uint64{threadFlags}, allow},
		{"clone a process", native, nr("clone"), []uint64{uint64(unix.SIGCHLD)}, allow},
		{"clone CLONE_NEWUSER", native, nr("clone"), []uint64{unix.CLONE_NEWUSER | uint64(unix.SIGCHLD)}, eperm},
		{"clone CLONE_NEWNET", native, nr("clone"), []uint64{unix.CLONE_NEWNET}, eperm},
		{"clone CLONE_NEWNS", native, nr("clone"), []uint64{unix.CLONE_NEWNS}, eperm},
		{"clone3", native, nr("clone3"), nil, enosys},
		{"unshare CLONE_NEWTIME", native, nr("unshare"), []uint64{unix.CLONE_NEWTIME}, eperm},
		{"unshare CLONE_FILES", native, nr("unshare"), []uint64{unix.CLONE_FILES}, allow},
		{"personality 0", native, nr("personality"), []uint64{0}, allow},
		{"personality READ_IMPLIES_EXEC", native, nr("personality"), []uint64{0x0400000}, eperm},
		{"personality high bits", native, nr("personality"), []uint64{1 << 32}, eperm},
		{"socket AF_INET", native, nr("socket"), []uint64{unix.AF_INET}, allow},
		{"socket AF_VSOCK", native, nr("socket"), []uint64{unix.AF_VSOCK}, eperm},
		{"socket AF_VSOCK, high bits", native, nr("socket"), []uint64{1<<32 | unix.AF_VSOCK}, eperm},
		{"flock", native, nr("flock"), []uint64{3, unix.LOCK_EX}, noop},
		{"fcntl F_SETLKW", native, nr("fcntl"), []uint64{3, unix.F_SETLKW}, noop},
		{"fcntl F_OFD_SETLKW", native, nr("fcntl"), []uint64{3, unix.F_OFD_SETLKW}, noop},
		{"fcntl F_GETLK", native, nr("fcntl"), []uint64{3, unix.F_GETLK}, allow},
		{"fcntl F_SETFL", native, nr("fcntl"), []uint64{3, unix.F_SETFL}, allow},
		{"fcntl F_SETLK, high bits", native, nr("fcntl"), []uint64{3, 1<<32 | unix.F_SETLK}, noop},
		{"another architecture's call", 0x40000003, 0, nil, kill},        // i386
		{"another architecture's keyctl", 0x40000028, 311, nil, kill},    // arm
		{"x32 ABI", native, 0x40000000 | nr("read"), nil, enosysIfX86()}, // a 32-bit ABI on amd64
	} {
		if got := run(t, vm, tc.arch, tc.nr, tc.args...); got != tc.want {
			t.Errorf("%s: %#x, want %#x", tc.name, got, tc.want)
		}
	}
}

// enosysIfX86 is what the filter answers a call with the x32 bit: ENOSYS
// on amd64, where it is another ABI; elsewhere an unknown number, allowed
// (the kernel answers ENOSYS itself).
func enosysIfX86() uint32 {
	if runtime.GOARCH == "amd64" {
		return unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	}
	return unix.SECCOMP_RET_ALLOW
}

// BenchmarkProgram: assembling the filter, which the box's init does once
// before it executes the bot.
func BenchmarkProgram(b *testing.B) {
	for b.Loop() {
		if _, err := Program(); err != nil {
			b.Fatal(err)
		}
	}
}
