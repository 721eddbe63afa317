// Command kinrow-bot-pndb is kinrow's prover: proof-number search over a
// DAG kept in a transposition table (package pns), for Connect-X and m,n,k.
// Each move it searches for a proved win until the deadline (less a margin)
// and plays it; otherwise it looks for a proved draw, then plays the root
// child with the best proof/disproof ratio, or on boards too big to search
// in time a quick threat-based move (win now, block, best window score).
//
// It is also a solver: `kinrow solve --bot pndb --weak` answers 1, 0 or -1
// (win, draw, loss for the side to move).
//
// Options: mem (node table budget in MiB, default 256).
package main
