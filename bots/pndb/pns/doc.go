// Package pns is proof-number search for k-in-a-row games (Connect-X with
// gravity, m,n,k free placement), after L. V. Allis (1994).
//
// The search works on a DAG kept in a table keyed by the Zobrist hash of the
// position (no child pointers): each entry holds the proof and disproof
// numbers of one position. On Connect-X and on m,n,k boards of at most
// SymmetryMaxCells cells the key is canonical, the least of the hashes of
// the position's images under the board's symmetries (8 on square boards,
// 4 on rectangular ones, the left-right mirror under gravity), kept
// incrementally, so that mirror images share one node; the moves an entry
// remembers are stored in the canonical image's frame (sym.go). OR nodes are those where the attacker (the side to
// move at the root) moves, AND nodes those of the defender. Each iteration
// descends from the root to the most-proving node along the remembered best
// child, expands it (creating its children with heuristic numbers), and
// updates its ancestors along the descent path, stopping as soon as the
// numbers of a node no longer change; the next descent starts from there.
//
// Two goals are proved: Win (the attacker wins) and NotLose (the attacker
// wins or draws); Searcher.Solve combines them into win / draw / loss. The
// entries of each goal and attacker are keyed apart (a salt in the key), so
// they share the table: a NotLose search takes the Win search's proved wins
// as proved, a Win search the NotLose search's proved losses.
//
// A decided node keeps the depth of its best reachable leaf and its best
// move: the side to move wins by its fastest winning child and loses by its
// slowest child, so Best plays the fastest win found and the slowest loss.
//
// Leaves are initialised from the game: terminal results; a side to move with
// an immediate win wins; a side to move facing one immediate threat has the
// blocking move as its only child (two threats lose); on boards of at most
// SymmetryMaxCells cells, a position where the side the goal is about (the
// attacker for Win, the defender for NotLose) has no window it can still
// fill is decided, and so is a child whose move fills the last one
// (dead.go); otherwise proof and
// disproof numbers come from the threat windows (runs of K cells free of the
// opponent) the move joins or blocks. With Options.DBNodes, DB-search
// (package dbsearch) looks for the attacker's threat sequences at each
// expanded leaf: where the attacker moves, a winning sequence gives its
// first move the proof number 1; where the defender moves, a sequence the
// attacker would win if the defender passed (the implicit threat) gives
// the defender's moves outside its cells very high disproof numbers.
// These are hints only: no node is decided by DB-search, so a proof is a
// proof of the PN search alone.
//
// Move generation: every legal move on Connect-X boards and on m,n,k boards
// of at most SmallBoard cells; on larger m,n,k boards only the cells within
// distance 2 of a stone, so proofs there assume that far moves are useless.
//
// Memory: the table (table.go) is one slice of Options.MemMiB MiB of
// fixed-size entries with open addressing, split into shards that grow
// inside their region, so a small search stays small. It is kept across
// Prove calls: when the root changes (the next move of a game), the nodes
// reachable from the new root are reused and, once the table is a quarter
// full, the others are dropped. When the table fills in a search it is
// collected (gc.go): proved and disproved subtrees are released (the
// decided node stays) with every node not reachable from the root; if the
// tree still fills most of it, the tree is cut below the depth that keeps
// half the table, and the search goes on with fewer nodes. It never grows
// past its budget.
package pns
