// Command clockreport is a test bot that reports the clock it receives, as
// log lines on stderr (which the host re-logs under the bot's name): at
// NewGame the time control ("newgame clock": movetime_ms, main_ms, byo_ms,
// byo_stones, increment_ms), at each GenMove the move's clock ("genmove
// clock": budget_ms, x_left_ms, o_left_ms, and ok, whether the SDK gave
// one). It plays the first legal move.
package main
