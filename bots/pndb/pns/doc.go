// Package pns is proof-number search for k-in-a-row games (Connect-X with
// gravity, m,n,k free placement), after L. V. Allis (1994).
//
// The search works on a DAG kept in a table keyed by the Zobrist hash of the
// position (no child pointers): each entry holds the proof and disproof
// numbers of one position. OR nodes are those where the attacker (the side to
// move at the root) moves, AND nodes those of the defender. Each iteration
// descends from the root to the most-proving node, expands it (creating its
// children with heuristic numbers), and updates its ancestors along the
// descent path, stopping as soon as the numbers of a node no longer change;
// the next descent starts from there.
//
// Two goals are proved: Win (the attacker wins) and NotLose (the attacker
// wins or draws); Searcher.Solve combines them into win / draw / loss.
//
// Leaves are initialised from the game: terminal results; a side to move with
// an immediate win wins; a side to move facing one immediate threat has the
// blocking move as its only child (two threats lose); otherwise proof and
// disproof numbers come from the threat windows (runs of K cells free of the
// opponent) the move joins or blocks.
//
// Move generation: every legal move on Connect-X boards and on m,n,k boards
// of at most SmallBoard cells; on larger m,n,k boards only the cells within
// distance 2 of a stone, so proofs there assume that far moves are useless.
//
// The table never grows past its memory budget (Options.MemMiB): the search
// stops expanding and reports an unknown outcome.
package pns
