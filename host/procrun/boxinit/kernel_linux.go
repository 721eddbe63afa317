package boxinit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// SessionKeyring is the name of the session keyring each box joins.
const SessionKeyring = "kinrow-box"

// maxUserNS is the box's own limit on user namespaces made in it.
const maxUserNS = "/proc/sys/user/max_user_namespaces"

// freshKeyring gives the calling thread, and so the bot it executes, a new
// session keyring in place of the host's (runc does the same): the host's
// keys are out of reach, and so are another box's. A keyring of that name
// is found again only by a process of the same user allowed to search it,
// and the keyring made here lets its user view, read and link it, not
// search it. A kernel without keyrings has nothing to share.
func freshKeyring() error {
	_, err := unix.KeyctlJoinSessionKeyring(SessionKeyring)
	if errors.Is(err, unix.ENOSYS) {
		return nil
	}
	return err
}

// maskKeys hides /proc/keys and /proc/key-users under /dev/null, as
// Docker does: they list every key the reader's uid may view, and a box
// whose host is not root runs as the host's uid, so the descriptions of
// the host's keys (never their payloads: the filter denies keyctl) would
// show there.
func maskKeys() error {
	for _, p := range []string{"/proc/keys", "/proc/key-users"} {
		if _, err := os.Stat(p); err != nil {
			continue // a kernel without keyrings
		}
		if err := unix.Mount("/dev/null", p, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hide %s: %w", p, err)
		}
	}
	return nil
}

// noUserNamespaces sets the box's user namespace's limit on the user
// namespaces made inside it to 0. The limit is the namespace's own, so it
// is written only after checking that this is not the machine's first
// user namespace, whose limit is the host's.
func noUserNamespaces() error {
	m, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return err
	}
	if f := bytes.Fields(m); len(f) == 3 && string(f[0]) == "0" && string(f[1]) == "0" && string(f[2]) == "4294967295" {
		return fmt.Errorf("the box is in the machine's first user namespace (uid_map %q): %s left alone", bytes.TrimSpace(m), maxUserNS)
	}
	err = os.WriteFile(maxUserNS, []byte("0\n"), 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil // a kernel without the limit (before Linux 4.9)
	}
	return err
}

// filterInsnSize is the size of one BPF instruction in Config.Filter.
const filterInsnSize = 8

// EncodeFilter is prog as Config.Filter carries it: each instruction's
// code (16 bits), jt, jf (8 bits each) and k (32 bits), little-endian.
func EncodeFilter(prog []unix.SockFilter) []byte {
	b := make([]byte, 0, len(prog)*filterInsnSize)
	for _, in := range prog {
		b = binary.LittleEndian.AppendUint16(b, in.Code)
		b = append(b, in.Jt, in.Jf)
		b = binary.LittleEndian.AppendUint32(b, in.K)
	}
	return b
}

// DecodeFilter reads a program EncodeFilter wrote: a whole number of
// instructions, from 1 to the kernel's limit of 4096.
func DecodeFilter(b []byte) ([]unix.SockFilter, error) {
	n := len(b) / filterInsnSize
	if len(b)%filterInsnSize != 0 || n == 0 || n > 4096 {
		return nil, fmt.Errorf("seccomp filter: %d bytes, want a multiple of %d for 1 to 4096 instructions", len(b), filterInsnSize)
	}
	prog := make([]unix.SockFilter, n)
	for i := range prog {
		in := b[i*filterInsnSize:]
		prog[i] = unix.SockFilter{Code: binary.LittleEndian.Uint16(in), Jt: in[2], Jf: in[3], K: binary.LittleEndian.Uint32(in[4:])}
	}
	return prog, nil
}

// LoadFilter installs the seccomp program b (Config.Filter) on the calling
// thread, which must have set no_new_privs (or hold CAP_SYS_ADMIN); what
// the thread starts or executes inherits it, the process's other threads
// do not.
func LoadFilter(b []byte) error {
	prog, err := DecodeFilter(b)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog)))
	switch {
	case e == unix.ENOSYS:
		return fmt.Errorf("seccomp filter: the kernel has no seccomp (CONFIG_SECCOMP_FILTER): %w", e)
	case e != 0:
		return fmt.Errorf("seccomp filter: load %d instructions: %w", len(prog), e)
	}
	return nil
}
