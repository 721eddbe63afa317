//go:build !linux

package testkeyring

import "testing"

// Hold skips t: there are no kernel keyrings outside Linux.
func Hold(t testing.TB, desc, secret string) {
	t.Helper()
	t.Skip("no kernel keyrings outside Linux")
}
