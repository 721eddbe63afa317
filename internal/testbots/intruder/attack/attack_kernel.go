//go:build linux

package attack

// The kernel-surface attacks of issue 35: state the kernel shares between
// the host and every box (keyrings, file locks), and calls that widen a
// box (user namespaces) or are attack surface (io_uring).
//
//   - keyring: lists the keys /proc/keys shows, reads the payload of every
//     key in its session keyring (keyctl KEYCTL_READ; at most 64 bytes
//     each, quoted), looks for covert keys ("kinrow-covert", added by
//     another bot) and adds one itself, its payload marker=. "got" when it
//     read a payload or added a key.
//   - iouring: io_uring_setup with 8 entries.
//   - userns: starts a child (this executable again, argv[1]
//     UsernsChildArg) in new user, mount, network and cgroup namespaces,
//     root in them, which mounts a tmpfs and cgroup2 and brings up its
//     loopback (network admin); "got" with what the child did.
//   - flock: takes an exclusive flock, without waiting, on the file
//     secret= (default /etc/passwd, a file every box sees), and holds it
//     for the process's life: "got" when another process's lock was there
//     (a signal received) or when its own lock shows in /proc/locks;
//     "refused" when the call succeeded but no lock is held.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/kinrow/kinrow/host/procrun/boxinit"
	"golang.org/x/sys/unix"
)

// CovertKey is the description of the keys the keyring attack adds.
const CovertKey = "kinrow-covert"

// UsernsChildArg is argv[1] of the userns attack's child.
const UsernsChildArg = "intruder-userns-child"

// keyring: the session keyring's keys read, a covert key added.
func keyring(o Options) (string, error) {
	var got, notes []string
	var errs []error
	if b, err := os.ReadFile("/proc/keys"); err == nil {
		var descs []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if f := strings.Fields(l); len(f) >= 9 {
				descs = append(descs, f[7]+" "+strings.TrimSuffix(f[8], ":"))
			}
		}
		notes = append(notes, "/proc/keys: "+strings.Join(descs, ", "))
	} else {
		errs = append(errs, err)
	}
	ring, err := unix.KeyctlInt(unix.KEYCTL_GET_KEYRING_ID, unix.KEY_SPEC_SESSION_KEYRING, 0, 0, 0)
	if err != nil {
		errs = append(errs, fmt.Errorf("the session keyring: %w", err))
	} else {
		ids, err := keyIDs(ring)
		if err != nil {
			errs = append(errs, fmt.Errorf("list keyring %d: %w", ring, err))
		}
		for _, id := range ids {
			desc, err := unix.KeyctlString(unix.KEYCTL_DESCRIBE, id)
			if err != nil {
				errs = append(errs, fmt.Errorf("describe key %d: %w", id, err))
				continue
			}
			f := strings.Split(desc, ";")
			name := f[len(f)-1]
			payload := make([]byte, 64)
			n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, payload, 0)
			if err != nil {
				errs = append(errs, fmt.Errorf("read key %s: %w", name, err))
				continue
			}
			payload = payload[:min(n, len(payload))]
			if name == CovertKey {
				got = append(got, fmt.Sprintf("saw covert key %q", payload))
			} else {
				got = append(got, fmt.Sprintf("read key %s: %q", name, payload))
			}
		}
	}
	marker := o["marker"]
	if marker == "" {
		marker = "intruder"
	}
	if id, err := unix.AddKey("user", CovertKey, []byte(marker), unix.KEY_SPEC_SESSION_KEYRING); err != nil {
		errs = append(errs, fmt.Errorf("add_key: %w", err))
	} else {
		got = append(got, fmt.Sprintf("added covert key %d %q", id, marker))
	}
	if len(got) == 0 {
		return "", errors.Join(append(errs, errors.New(strings.Join(notes, "; ")))...)
	}
	return strings.Join(append(got, notes...), "; "), nil
}

// keyIDs lists the keys in keyring ring.
func keyIDs(ring int) ([]int, error) {
	buf := make([]byte, 4*256)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, ring, buf, 0)
	if err != nil {
		return nil, err
	}
	n = min(n, len(buf))
	ids := make([]int, 0, n/4)
	for i := 0; i+4 <= n; i += 4 {
		ids = append(ids, int(int32(binary.NativeEndian.Uint32(buf[i:]))))
	}
	return ids, nil
}

// iouring: an io_uring made.
func iouring() (string, error) {
	var params [120]byte // struct io_uring_params
	fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 8, uintptr(unsafe.Pointer(&params[0])), 0)
	if e != 0 {
		return "", fmt.Errorf("io_uring_setup: %w", e)
	}
	unix.Close(int(fd))
	return fmt.Sprintf("io_uring_setup gave descriptor %d", fd), nil
}

// userns: a child root in user namespaces of its own.
func userns() (string, error) {
	cmd := exec.Command("/proc/self/exe", UsernsChildArg)
	cmd.Env = []string{}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWCGROUP,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start a child in a new user namespace: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return "", fmt.Errorf("the child in its user namespace: %w: %s", err, strings.TrimSpace(out.String()))
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		return "", errors.New("the child in its user namespace did not end within 10 s")
	}
	var did, failed []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(l, "did ") {
			did = append(did, l)
		} else if l != "" {
			failed = append(failed, l)
		}
	}
	if len(did) == 0 {
		return "", fmt.Errorf("a user namespace made, but nothing done in it: %s", strings.Join(failed, "; "))
	}
	return "in a user namespace of its own: " + strings.Join(append(did, failed...), "; "), nil
}

// usernsChild is the userns attack's child: root in its namespaces, it
// mounts, and takes network admin. It prints "did WHAT" or what failed,
// and exits.
func usernsChild() {
	step := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
		} else {
			fmt.Printf("did %s\n", what)
		}
	}
	step("uid "+strconv.Itoa(os.Getuid())+" with capabilities "+capEff(), nil)
	err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, "")
	if err == nil {
		err = unix.Mount("intruder", "/tmp", "tmpfs", 0, "size=1m")
	}
	step("mount tmpfs on /tmp", err)
	if err == nil {
		err = os.Mkdir("/tmp/cg", 0o755)
		if err == nil {
			err = unix.Mount("cgroup2", "/tmp/cg", "cgroup2", 0, "")
		}
		step("mount cgroup2", err)
	}
	step("bring up lo (network admin)", boxinit.LoopbackUp())
	os.Exit(0)
}

// capEff is the process's effective capabilities from /proc/self/status.
func capEff() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "CapEff:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// flock: an exclusive lock on a file every box sees, held.
func flock(o Options) (string, error) {
	path := o["secret"]
	if path == "" {
		path = "/etc/passwd"
	}
	// A raw descriptor, never closed: the lock lasts as long as the bot.
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return "", err
	}
	err = unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
	switch {
	case errors.Is(err, unix.EWOULDBLOCK):
		return fmt.Sprintf("%s is locked by another process: a signal received", path), nil
	case err != nil:
		return "", fmt.Errorf("flock %s: %w", path, err)
	}
	if locks := locksOn(st.Ino); locks > 0 {
		return fmt.Sprintf("holds an exclusive flock on %s (/proc/locks shows %d lock(s) on it)", path, locks), nil
	}
	return "", fmt.Errorf("flock %s returned success, but no lock is held (/proc/locks shows none on inode %d)", path, st.Ino)
}

// locksOn counts the locks /proc/locks shows on inode ino.
func locksOn(ino uint64) int {
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, ":"+strconv.FormatUint(ino, 10)+" ") {
			n++
		}
	}
	return n
}
