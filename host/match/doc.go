// Package match runs automated games between bots under the referee's
// rules: a match between two bots, a round robin of several, or a gauntlet
// of the first against the rest. Every opening is played twice with colours
// swapped (a game pair), games run concurrently each with its own bot
// processes, a bot that crashes or hangs forfeits and is restarted for the
// next game, and every finished game is appended to a JSON-lines file as
// soon as it ends, so an interrupted run resumes where it stopped.
//
// kinrow match is a thin command over this package: Settings checks its
// flags (the clock, --bot-opt NAME[#N]:KEY=VALUE, shards, openings) into a
// Config; Progress reports the games (a bar, log lines kept off its line),
// GameExport writes them in other formats, Watch feeds the live viewer,
// and Summary.WriteText and WriteJSON print the result.
package match
