package testkeyring

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// Hold gives the calling goroutine's thread a new session keyring (named
// "kinrow-test") holding a user key desc with payload secret; what the
// goroutine starts from now on inherits it. A session keyring belongs to
// a thread, so the goroutine stays locked to this one, which ends with
// it, keyring and all: call Hold in the goroutine that starts the host,
// the test's own (t.Run's function). It skips t where the kernel has no
// keyrings.
func Hold(t testing.TB, desc, secret string) {
	t.Helper()
	runtime.LockOSThread()
	if _, err := unix.KeyctlJoinSessionKeyring("kinrow-test"); err != nil {
		t.Skipf("no session keyring of the test's own (keyctl: %v)", err)
	}
	if _, err := unix.AddKey("user", desc, []byte(secret), unix.KEY_SPEC_SESSION_KEYRING); err != nil {
		t.Skipf("add_key to the session keyring: %v", err)
	}
}
