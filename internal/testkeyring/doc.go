// Package testkeyring gives a test a session keyring of its own holding a
// key, inherited by the processes it starts as a host's login session's
// keyring is: the kernel-surface tests check that a boxed bot cannot read
// it.
package testkeyring
