// Package referee keeps the authoritative game and enforces its rules on
// every move. It is the session core every front end shares: the GTP-style
// text protocol, the match runner and the Gomocup adapter all hold a Game,
// attach Players to its two sides and ask them for moves through it.
//
// Asking a player for a move gives it a deadline (its move time, or what its
// clock has left) plus a grace; a player that answers late, crashes,
// disconnects, answers an error, an unparsable or an illegal move forfeits
// the game, and the reason is kept in the game record. A player that timed
// out or crashed is killed, never waited on. A move from any source is checked
// against the host's own position before it is played.
//
// Telling a player about a move never delays the side that moved: each
// side's notifications go through a mailbox delivered in order on its own
// goroutine, and the referee waits for them when that side is next asked to
// move, within that move's deadline; a side that does not take them in time
// forfeits by timeout. A cancelled caller context is returned to the caller
// and is never a verdict. Text quoted from a bot in a verdict is capped
// (Quote).
//
// # The one bot contract
//
// Player is the host's one contract with a bot, whatever runs it: a plugin
// (host/pluginbot), an external engine (host/enginebot), or in tests the one
// fake (refereetest.Player). The referee, gtpfront, pbrain, match and
// kinrow solve hold bots through it alone. It is shaped after go-plugin's
// examples/grpc: one request type per call, the wire-level contract
// (protocol/botapi's Bot) below it, and protobuf only in botapi's glue.
//
//   - A move is asked with one MoveRequest: its wire part is
//     botapi.GenMoveRequest (deadline, budget, both clocks), which a plugin
//     gets as it is; the host adds the side to move and an optional
//     Progress callback (pbrain's MESSAGE lines). GenMove answers the move
//     with its last search report (Answer), which the referee records.
//   - What the host knows of a player's processes is Facts, one struct:
//     how it ended, its CPU time, whether it went over its memory cap, its
//     tolerance past a deadline. No front end discovers abilities by type
//     assertion.
//   - Solving goes through the same contract (Solve, a stream; SolveOne for
//     one position); a player that cannot solve says ErrUnsupported.
package referee
