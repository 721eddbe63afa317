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
// Rules.Gravity says whether stones drop (Connect-X) or go on any cell, and
// Rules.MoveRange how many move numbers there are: ask them rather than the
// Kind. Rules.Symmetries gives the board's symmetries
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
