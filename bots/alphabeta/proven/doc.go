// Package proven is how the alphabeta bot plays what is proven on
// Connect-X boards of package solver: the opening book's move (the move a
// strategy book holds for the position, or the best of the scores a full
// book holds for its children), then the exact solver's move
// whenever an estimate says it finishes within the move, and otherwise
// the search's move, checked so that it never gives up a value the bot
// had proven.
//
// The solver first proves the position's value, which fills its table,
// then solves the moves, centre first, and stops at the first that reaches
// that value. The estimate of what this costs on a position of e empty
// cells is n0·g^(e-e0) nodes at the node rate the solver last showed; both
// n0 and the rate follow what each finished solve measured (moving
// averages), so a loaded machine or a hard position makes the next
// estimate longer. The solver runs only when the estimate is at most a
// quarter of the move's time, or solves weakly (win, draw or loss: about a
// third of the nodes, and the outcome as safe) when a third of the
// estimate fits the move, with a deadline at nine tenths of it, and the search
// plays in what is left when it misses. The solver's table is kept from
// move to move, so a position it could not finish makes the next easier.
//
// A proven value is kept from move to move: after the bot plays a move
// of proven score S, its next position is worth at least S whatever the
// opponent answers (a win so proven is kept without solving the position
// again: its moves are solved weakly until one wins, even when the
// estimate does not fit the move); a position whose value the solver proved before its
// moves ran out of time is worth that value. When the search chooses a move in such a position,
// the move is checked with a weak solve (win, draw or loss) within the
// time left and replaced, centre first, by one that keeps S's outcome
// when it would lose it.
package proven
