// Command kinrow-bot-random is the smallest kinrow bot: it plays a move
// chosen uniformly among the legal ones, on any Connect-X or m,n,k board.
// Its strength is 0, so any real bot is preferred as the host's default.
//
// Option seed=N (an int64) makes its games reproducible; without it the
// seed is time-based. Build it with `make` (bin/kinrow-bot-random) and load
// it in the host with `kinrow-load x random seed=3`; `kinrow-bot-random
// --help` describes it. It is also the example to copy when writing a bot
// with protocol/sdk.
package main
