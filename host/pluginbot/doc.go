// Package pluginbot runs bots as go-plugin subprocesses and presents each as
// a referee.Player. It covers go-plugin's pitfalls itself: gRPC is allowed
// explicitly, with every answer capped in size (botapi.DialOptions); the
// bot's stdin is /dev/null, so it never reads the protocol stream; the bot
// runs under the host's process runner (host/procrun: its own cgroup where
// one can be made, else its process group), gets SIGKILL if the host dies,
// and is killed with everything it started, escaped or not; every kill is
// bounded in time even when the bot is frozen; start-up has a timeout; its
// environment is minimal (Containment.Env adds names), its memory capped
// (Containment.Memory, Spec.Memory), its stderr capped; the handshake's
// address must be a unix socket in its private directory; unix sockets live
// in a directory the Runner owns and removes (kinrow-bots-PID-*; a later
// Runner removes those of hosts that are gone). A host kill (Kill, Close) is
// not logged as the bot's failure.
//
// The package only runs a plugin process it is given (Runner.Start, a
// Spec): finding bots, checking them against the lock file, describing them
// and choosing the default one is host/registry's job.
package pluginbot
