// Command kinrow is the kinrow host: `kinrow` (or `kinrow serve`) speaks
// the text protocol on stdin/stdout; match, solve, pbrain, export, import,
// view, ratings, merge, java-manifest, doctor and bots lock are its
// subcommands, and as pbrain-kinrow[-NAME] it is a Gomocup brain.
//
// The command line is github.com/spf13/cobra with its pflag: GNU flags
// (--flag value and --flag=value), flags anywhere among the arguments
// (export and view read flags after a file name), --help for every
// subcommand, generated shell completion (kinrow completion bash|zsh|fish),
// and a library that is widely used and maintained. Subcommands only wire
// flags to the packages that do the work (host/match, host/solve,
// host/ratings, host/recordfmt, host/view, host/javabridge); bots.go holds
// every use of the bot packages and the host flags, defined once.
//
// Logs go to stderr through go-hclog (--log-level, KINROW_LOG), never to
// stdout. Ctrl-C stops every bot process the host started.
package main
