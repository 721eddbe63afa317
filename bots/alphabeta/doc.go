// Command kinrow-bot-alphabeta is kinrow's full-width searcher: negamax with
// alpha-beta, null-window re-search, iterative deepening and a
// transposition table, strongest wherever full-width search reaches, and a
// solver: `kinrow solve --bot alphabeta` proves positions (--weak: win,
// draw or loss). Connect-X boards that fit 64 bits with a sentinel row go
// to package solver's bitboard (in play: the book's move, the solver's when
// it fits the move, else package quick's heuristic search on the same
// bitboard, checked by package proven), larger Connect-X boards (up to 64
// rows) to package wide's word-per-column bitboard, everything else (m,n,k)
// to package search on the engine's board.
//
// Options: tt (table size in MiB), branching (candidates searched per node
// when not solving). Run it with --help for the list.
package main
