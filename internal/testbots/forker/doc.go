// Command forker is a test bot that starts a child process ("sleep 300",
// left in the bot's process group) at every NewGame, then hangs in GenMove
// like hang. Killing the bot alone would leave the child running.
package main
