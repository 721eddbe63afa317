// Package pluginbot runs bots as go-plugin subprocesses and presents each as
// a referee.Player. It covers go-plugin's pitfalls itself: gRPC is allowed
// explicitly; the bot's stdin is /dev/null, so it never reads the protocol
// stream; the bot leads its own process group, gets SIGKILL if the host
// dies, and is killed group-wide, so forked children die with it; every kill
// is bounded in time even when the bot is frozen (SIGSTOP); start-up has a
// timeout; unix sockets live in a directory the Loader owns and removes.
package pluginbot
