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
package referee
