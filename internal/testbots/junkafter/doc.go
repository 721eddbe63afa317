// Command junkafter is a test bot that plays legally but, in every GenMove,
// first writes junk straight to file descriptor 1, the pipe go-plugin read
// the handshake from: the host must not be disturbed.
package main
