// Command kinrow-bot-pndb is kinrow's prover: proof-number search over a
// DAG kept in a transposition table (package pns), for Connect-X and m,n,k.
// Each move it searches for a proved win until the deadline (less
// the reserve every kinrow bot keeps, sdk.Reserve)
// and plays it; otherwise it looks for a proved draw, then plays the root
// child with the best proof/disproof ratio, or on boards too big to search
// in time a quick threat-based move (win now, block, best window score).
//
// It is also a solver: `kinrow solve --bot pndb --weak` answers 1, 0 or -1
// (win, draw, loss for the side to move).
//
// The searcher, and its table, is kept across the moves of a game (and
// handed to the next game of the same rules): each search starts from the
// nodes of the earlier ones reachable from the new position.
//
// Options: mem (node table budget in MiB, default 256: the process's table
// never grows past it), db (DB nodes per DB-search at an expanded leaf,
// default 100; 0 turns DB-search off). DB-search runs on m,n,k boards with
// a side longer than K only, and on boards of more than 64 cells only at
// the root and its children: elsewhere it cost more than it saved.
package main
