// Package pluginbot runs bots as go-plugin subprocesses and presents each as
// a referee.Player. It covers go-plugin's pitfalls itself: gRPC is allowed
// explicitly, with every answer capped in size (botapi.DialOptions); the
// bot's stdin is /dev/null, so it never reads the protocol stream; the bot
// runs under the host's process runner (host/procrun: its own cgroup where
// one can be made, else its process group), gets SIGKILL if the host dies,
// and is killed with everything it started, escaped or not; every kill is
// bounded in time even when the bot is frozen; start-up has a timeout; its
// environment is minimal (Containment.Env adds names), its memory capped
// (Containment.Memory, LoadCapped), its stderr capped; the handshake's
// address must be a unix socket in its private directory; a lock file
// (LockFile, WriteLocks) beside the bots refuses a changed binary; unix
// sockets live in a directory the Loader owns and removes
// (kinrow-bots-PID-*; a later Loader removes those of hosts that are gone).
// The Loader chooses the default bot from Info asked of every bot in
// parallel, waiting at most the probe timeout, cached per executable.
package pluginbot
