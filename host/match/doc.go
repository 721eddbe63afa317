// Package match runs automated games between bots under the referee's
// rules: a match between two bots, a round robin of several, or a gauntlet
// of the first against the rest. Every opening is played twice with colours
// swapped (a game pair), games run concurrently each with its own bot
// processes, a bot that crashes or hangs forfeits and is restarted for the
// next game, and every finished game is appended to a JSON-lines file as
// soon as it ends, so an interrupted run resumes where it stopped.
package match
