// Command kinrow is the kinrow host: `kinrow` (or `kinrow serve`) speaks
// the text protocol on stdin/stdout; match, solve, pbrain, export, import,
// view, ratings, merge, java-manifest, doctor, bots lock, book build and
// openings are its subcommands, and as pbrain-kinrow[-NAME] it is a Gomocup brain.
//
// The command line is github.com/spf13/cobra with its pflag: GNU flags
// (--flag value and --flag=value), flags anywhere among the arguments
// (export and view read flags after a file name), --help for every
// subcommand, generated shell completion (kinrow completion bash|zsh|fish),
// and a library that is widely used and maintained. Subcommands only wire
// flags to the packages that do the work (host/match, host/solve,
// host/ratings, host/recordfmt, host/view, host/javabridge,
// bots/alphabeta/book, bots/alphabeta/openings); the flags of every
// subcommand that starts bots are defined once in host/botflags, and one
// progress reporter (host/progress) serves match, book build and openings.
// A subcommand returns its error: a usageError (bad input) exits 2, any
// other 1, both said as "kinrow CMD: why" on stderr (kinrowErrors).
//
// Logs go to stderr through go-hclog (--log-level, KINROW_LOG), never to
// stdout. Ctrl-C stops every bot process the host started.
package main
