// Command kinrow-bot-gomoku is kinrow's five-in-a-row bot for m,n boards
// (K = 5) under freestyle, exact five (gomoku-standard) and renju: a
// pattern evaluation updated incrementally per move (package pattern's
// tables, package board), threat search (package vcf: VCF at the leaves,
// VCF and VCT at the root, with pndb's dbsearch as a second VCT where it is
// sound) and a principal variation search with a transposition table and
// iterative deepening under a time manager that keeps 40% of each
// move's time in hand, at least 60 ms (package search). Under renju black's moves are
// checked with the engine's judge before they are played, and white's
// search uses black's forbidden cells.
//
// Games of another K are handed to the MICS searcher of bots/mics, so the
// bot plays every m,n,k game. Build it with `make` (bin/kinrow-bot-gomoku)
// and play it with `kinrow match --bot gomoku` or `kinrow-load x gomoku`.
package main
