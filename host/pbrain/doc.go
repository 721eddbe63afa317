// Package pbrain makes a kinrow bot a Gomocup brain: it reads the manager's
// commands (protocol/gomocup) on one stream, answers on another, and plays
// through the same referee.Game and referee.Player the text-protocol front
// end (host/gtpfront) uses. It is a thin adapter: the position, legality and
// the bot's deadline are the referee's; this package maps the protocol's
// commands onto them and keeps the protocol's promises the referee does not
// know about.
//
// # Session
//
// START n and RECTSTART w,h set up a board under the INFO rule given so far
// (mnk:{h}x{w}x5 for rule 0, freestyle: five or more wins; :exact for rule
// 1, exactly five; :renju for rule 4), start the bot (Config.Bot if it
// declares that variant, or the strongest installed bot that plays it) and
// answer OK; a board kinrow does not play, a rule it does not play
// (continuous, caro), a variant no bot plays, or a bot that refuses the
// game gets ERROR naming what is supported. An INFO rule that comes after
// START (as managers send it) applies from the next BEGIN, TURN or BOARD,
// before the first move. RESTART starts a new game on the same board. BEGIN,
// TURN X,Y and BOARD … DONE bring the game to the position the manager
// describes (TURN plays the opponent's stone, BOARD replaces the position:
// field 1 the brain's stones, 2 the opponent's; the opponent moved first
// when it has one stone more, the brain when both have as many; each side's
// stones are played in the order sent) and answer the bot's
// move. TAKEBACK X,Y takes back the last stone, which must be X,Y; PLAY X,Y
// plays X,Y for the brain. INFO settings persist until changed. ABOUT
// answers name, version and author. END, or the end of the input, stops
// every bot process and returns within a second. Anything else gets
// UNKNOWN, a malformed known command ERROR, and the session goes on.
//
// # Time
//
// A move's limit L is INFO timeout_turn (Config.DefaultTurn when the
// manager sets none; Config.FastTurn for timeout_turn 0, "as fast as
// possible"), capped by a share of the match time left (time_left minus
// the time this brain used since it came, or timeout_match minus the time
// this brain has used): L = min(turn, max(left/MatchShare, min(left/2,
// FastTurn))). The clock starts when the command is read. With the safety
// margin m = min(Config.Margin, L/2), the bot's deadline is L - m, the
// referee waits m/4 more before declaring it late, and the brain answers by
// L - m/2 whatever happens: with the bot's move, or, when the bot stalled,
// crashed, resigned or answered nonsense, with the best move it reported so
// far, or else a legal move of its own (win now, block the opponent's five,
// or the free cell next to the stones nearest the centre). Why is logged on
// stderr; a bot that failed is killed, whole process group, and a fresh one
// is started for the next move.
//
// INFO max_memory is passed to a bot that declares a memory option (an int
// option named mem, memory, hash or tt, taken as MiB): half of max_memory,
// within the option's bounds, unless the user set that option.
//
// # Progress
//
// Each progress report of the bot (botapi.Progress) becomes one MESSAGE
// line before the answer, with moves in Gomocup coordinates:
//
//	MESSAGE depth 6 score 35 nodes 120000 best 10,9
//
// The package writes nothing else to its output; logs go to the hclog
// logger (stderr in cmd/kinrow).
package pbrain
