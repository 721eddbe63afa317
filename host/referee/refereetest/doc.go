// Package refereetest is the one fake player of kinrow's tests: an
// in-process referee.Player with its own board, whose answers, refusals,
// stalls, crashes, search reports, CPU time and memory verdicts a test
// scripts through its fields. It stands in for a bot process in the tests
// of host/referee, host/gtpfront, host/pbrain, host/match and the others
// that hold players.
//
// The referee's own tests, those of the front ends and the match runner
// hold it where a real bot would be: its calls are noted (Calls, with
// whether any two overlapped), its board is readable (Moves, Hash), and
// what it was given (Setups, Options) and whether it was let go (Killed,
// Released) can be checked.
package refereetest
