// Package botflags holds the command-line flags of kinrow's subcommands
// that start bots, defined once: --log-level, --bot-start-timeout,
// --grace and the containment flags (--bot-memory, --bot-env,
// --verify-bots, --bot-mtls, --sandbox, --bot-network, --bot-suspend), and
// what they make: the logger and the bot registry the subcommand runs
// with. It also reads --bot-opt KEY=VALUE lists (Options) and writes the
// bots' lock file (WriteLocks).
package botflags
