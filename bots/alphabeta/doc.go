// Command kinrow-bot-alphabeta is kinrow's full-width searcher: negamax with
// alpha-beta, null-window re-search, iterative deepening and a
// transposition table (package search), strongest wherever full-width
// search reaches, and a solver: `kinrow solve --bot alphabeta` proves
// positions (--weak: win, draw or loss).
//
// Options: tt (table size in MiB), branching (candidates searched per node
// when not solving). Run it with --help for the list.
package main
