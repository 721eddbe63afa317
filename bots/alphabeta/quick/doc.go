// Package quick is alphabeta's heuristic search for the Connect-X boards
// the exact solver holds (package solver: (rows+1)*cols <= 64): when a
// move must be chosen before the position can be solved, it searches the
// solver's bitboards by iterative deepening; given the same time, its
// moves keep the outcome more often than those of the engine-board search
// of package search (docs/PERFORMANCE.md, *The quick search*).
//
// Each node answers its tactics first, soundly, as the solver does: a
// move that completes k in a row wins; two cells where the opponent would
// complete a row, both playable now, lose; a single one must be blocked
// (and that forced move does not count against the depth, so a chain of
// blocks is followed to its end); a move under a cell where the opponent
// would complete a row loses and is never searched. Wins and losses found
// this way are proven, the distance to them exact along the line found.
// At the depth limit a position is scored by eval.go: the k-in-a-row
// windows through each side's stones, and each side's threats (empty
// cells that would complete its row), worth more on the rows whose parity
// favours it (Allis' odd threats for the first player, even threats for
// the second).
//
// A transposition table (table.go) keeps a bound, its depth and the best
// move of each position met; the table is touched in full when it is made
// so that no move pays for its pages.
package quick
