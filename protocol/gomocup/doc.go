// Package gomocup implements the Gomocup brain protocol (the "new protocol"
// of Piskvork and Gomocup's judge, by Petr Lašťovička and Martin Petříček)
// for both ends of the pipe, once: the manager's commands and the brain's
// answers as Go values, their parsers and printers, line readers and a
// writer, and the mapping between Gomocup coordinates and kinrow moves.
//
// # Commands and answers
//
// A manager sends [Command]s, one per line (BOARD and SWAP2BOARD are the
// exception: a header line, stone lines, then DONE): START n, RECTSTART w,h,
// RESTART, BEGIN, TURN x,y, BOARD … DONE, INFO key value, TAKEBACK x,y, END,
// ABOUT, PLAY x,y and SWAP2BOARD … DONE. [ParseCommand] reads one line,
// [ReadCommand] / [Reader.Next] read whole commands including the stone
// lines, and [WriteCommand] / [Command.Lines] print them. A brain answers
// with [Response]s: OK, ERROR msg, UNKNOWN msg, MESSAGE text, DEBUG text,
// SUGGEST x,y, a move "x,y" (or several, "x,y x,y", and SWAP, in Swap2
// openings) and ABOUT's key="value" list ([About]); [ParseResponse],
// [ResponseReader] and [WriteResponse] handle those. [Writer] writes both,
// one whole line per call, safe for concurrent use.
//
// Lines may end with CR LF (as managers send them), LF or CR (as brains may
// answer); empty lines are skipped; command words are case-insensitive;
// spaces around the comma of a coordinate are tolerated. A line longer than
// [MaxLineBytes] is discarded in bounded memory and reported once with
// [ErrLineTooLong]. Printed commands end with CR LF, printed answers with LF;
// text that would break the line (CR, LF, other control characters) is
// replaced by spaces.
//
// Errors from the parsers are [*SyntaxError]s. Those for a word that is not
// a command wrap [ErrUnknownCommand]: a brain answers them with UNKNOWN, and
// with ERROR a known command it cannot read ([ReplyTo] chooses). A Reader
// goes on after either, so one bad line never ends a session.
//
// # Coordinates
//
// Gomocup writes a point as X,Y, both from 0, X the column from the left and
// Y the row from the top. kinrow's m,n,k moves number cells row*Cols+col
// with row 0 at the bottom (vertex a1 is the bottom-left corner), so
//
//	col = X            row = Rows-1-Y
//
// and on a board of height H the Gomocup point 0,0 is kinrow's a{H}, the
// top-left corner, while 0,H-1 is a1. A START n board is the m,n,k game
// mnk:nxnx5 (RECTSTART w,h is mnk:hxwx5: rows first); freestyle, rule 0,
// means five or more in a row wins, which is what kinrow's K means. [ToMove]
// and [FromMove] convert, [FreestyleRules] builds the rules.
//
// # Rules and INFO
//
// INFO rule is a bit mask ([Rule]): 1 exactly five, 2 continuous game, 4
// renju, 8 caro; 0 is freestyle. kinrow plays 0, 1 and 4 (and 5, renju):
// [Rule.Line] maps them to the engine's line rules (freestyle, exact,
// renju), [RuleOf] back, and [BoardRules] builds the rules of a board under
// a rule. The INFO keys the protocol defines are
// constants (InfoTimeoutTurn, …); [Command.Int] reads a numeric value.
//
// The package knows the protocol's words, not what a brain does with them:
// sessions live in the host (host/pbrain for the brain side).
package gomocup
