package boxinit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/kinrow/kinrow/host/procrun/boxinit/seccomp"
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

// loadFilter loads the box's seccomp filter on the calling thread (the
// one that executes the bot); no_new_privs is set already.
func loadFilter() error {
	prog, err := seccomp.Program()
	if err != nil {
		return err
	}
	return seccomp.Load(prog)
}

// filterSupported is seccomp.Available, asked once per process: it is a
// fact about the machine.
var filterSupported = sync.OnceValue(seccomp.Available)

// FilterSupported says whether this machine can load the box's seccomp
// filter (nil) or why not.
func FilterSupported() error { return filterSupported() }

// KernelStatus are the parts of the sandbox the init adds against the
// kernel's shared state, for the host's account of the sandbox: those in
// force, and those missing with why.
func KernelStatus() (parts, missing []string) {
	parts = []string{"own session keyring"}
	if err := FilterSupported(); err != nil {
		return parts, []string{fmt.Sprintf("seccomp filter: %v", err)}
	}
	return append([]string{"seccomp filter"}, parts...), nil
}
