// Package engine holds the rules and boards every part of kinrow shares.
//
// A Rules value names a game: Connect-X (gravity: a stone drops to the lowest
// free cell of a column) or the m,n,k-game (free placement), with its rows,
// columns, the length K of a winning line and its line rule (Line): the
// registry of rule variants, each defined once here with its name in rules
// strings, its win test and its forbidden moves — freestyle (K or more
// wins), exact (exactly K; presets gomoku-standard) and renju (black's
// double three, double four and overline forbidden as the Renju
// International Federation's rules judge them, recursively; preset renju).
// Position.Result, Check, LegalMoves and Foul ask the line rule, so no other
// package tests lines itself; in renju a game where black is to move and
// every empty cell is forbidden to it is over, drawn (Position.Stuck).
// Rules are values that answer for themselves: Rules.Game is the family's
// descriptor (Game: gravity, the move range — columns or cells —, the
// notation, the number of symmetries, the outside formats that hold its
// games such as PSQ, SGF and Gomocup's coordinates, its usual board), and
// Rules.Line the line rule, whose win test (Line.Wins, ExactFor) and
// forbidden moves (Line.Forbids, Judge) are its own methods: ask these
// rather than comparing a Kind or a Line (a bot may still check the one
// line rule its solver proves, an outside format map its own rule codes).
//
// Adding a variant: a new family of games is a Kind constant and its entry
// in the games registry of game.go (its notation, gravity, formats, usual
// board; a preset and its words in RulesSyntax there too if it has one); a
// new line rule is a Line constant and its entry in the lines registry of
// line.go (name, which families and K it is for, its win test and, if it
// forbids moves, its judge). Nothing else in engine/ or elsewhere changes,
// but the bots that want to play it (they declare Variants in their Info).
//
// Rules.Gravity says whether stones drop (Connect-X) or go on any cell, and
// Rules.MoveRange how many move numbers there are (both the Game's
// answers). Rules.Symmetries gives the board's symmetries
// and SymHash the least symmetric Zobrist key that bots key their tables by.
// A Position is a board of any
// size allowed by those rules: it plays and undoes moves without allocating,
// detects a win from the last move alone in O(K), and keeps a 64-bit Zobrist
// hash up to date incrementally. A Connect-X move list replayed from the
// empty board (PlayMoveList, what kinrow solve's host and every solving bot
// do for each position) is checked on a bitboard first when the board fits
// 64 bits, then placed without a line walk per move (gravitylist.go; the
// same result move by move, checked by a crosscheck test and a fuzz
// target). Moves are printed and parsed in one notation
// (column numbers for Connect-X, GTP-style vertices such as "h8" for m,n,k),
// so the protocol, the solver and the game records agree on every move.
package engine
