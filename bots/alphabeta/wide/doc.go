// Package wide plays and solves Connect-X on boards too large for a single
// 64-bit bitboard, up to 64 rows and 128 columns (the engine's widest), with
// any k: 38x58x12 is the case it was built for.
//
// A Board holds one uint64 word per column, a stone of each side as a bit,
// and keeps, move by move, the cells where each side would complete k in a
// row: a new stone can create at most eight, the first cell past its runs
// in the eight directions, so Play and Undo cost O(k) and never scan the
// board. It also keeps the stone counts of every window of k cells (the
// evaluation and the move ordering read them) and two independent Zobrist
// keys.
//
// The Searcher runs negamax with alpha-beta and principal-variation
// (null-window) re-searches over a transposition table whose entries are
// found by the first key and verified by the second, 64 bits, stored whole.
// Every node answers its own immediate win and the opponent's (two threats
// to block lose at once), never plays under a cell where the opponent would
// win, bounds its score by the moves left, and orders its moves: the
// table's first, then by the winning cells they create, then by the open
// windows they make or spoil, centre first on ties. BestMove deepens
// iteratively to the deadline with a heuristic evaluation at the horizon
// (open windows and winning cells of each side, a cell on the row parity
// that favours its owner counting double) and plays the best move of the
// last finished iteration, optionally searching only the best few moves of
// each node (SetBranching); a value that rests on no horizon leaf and no
// pruning is proved, and a proved win ends the search. Solve and Analyze
// search every move to the end of the game for exact scores.
//
// # Scores
//
// Exact scores are those of package solver and of the shared Connect-4
// test files: a win with s stones of the winner on the board scores
// floor((R*C+1)/2) + 1 - s, a loss the negated score of the opponent's win,
// a draw 0.
package wide
