// Package search is the alphabeta bot's general searcher: negamax with
// alpha-beta, null-window (PVS) re-search, iterative deepening and a
// transposition table over engine.Position, for every board the 64-bit
// Connect-X solver does not cover: m,n,k boards of any size and large
// Connect-X boards. Its evaluation counts open windows (runs of K cells
// holding stones of one side only) for both sides, kept incrementally in
// O(K) per move; its candidates are the cells near stones (m,n,k) or the
// playable cells (Connect-X), ordered by the table's move, immediate wins,
// forced blocks, then by how many open lines a move makes. Searched to the
// end of the game it is exact, which is how it proves small boards.
package search
