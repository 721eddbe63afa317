// Package pluginbot runs bots as go-plugin subprocesses and presents each as
// a referee.Player. It covers go-plugin's pitfalls itself: gRPC is allowed
// explicitly, with every answer capped in size (botapi.DialOptions); the
// bot's stdin is /dev/null, so it never reads the protocol stream; the bot
// leads its own process group, gets SIGKILL if the host dies, and is killed
// group-wide, so forked children die with it; every kill is bounded in time
// even when the bot is frozen (SIGSTOP); start-up has a timeout; unix
// sockets live in a directory the Loader owns and removes
// (kinrow-bots-PID-*; a later Loader removes those of hosts that are gone).
// The Loader chooses the default bot from Info asked of every bot in
// parallel, waiting at most the probe timeout, cached per executable.
package pluginbot
