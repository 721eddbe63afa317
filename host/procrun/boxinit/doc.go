// Package boxinit is the inside of the host's sandbox (host/procrun): the
// first process of a box, started by the host in new user, pid, mount,
// network, IPC and UTS namespaces with a Config, builds the box's root
// (with a small tmpfs of the bot's own at each Private path), drops to
// the box user, joins a session keyring of its own, forbids user
// namespaces inside the box, loads the seccomp filter the host assembled
// (package seccomp) and executes the bot, or tells the host why it could
// not.
//
// It runs as cmd/kinrow-box, a small binary beside kinrow that starts in
// about a millisecond, or, where there is none (a test binary), as the
// host's own binary re-executed (procrun's init hook calls Main); it
// imports nothing of kinrow, so either starts fast.
package boxinit
