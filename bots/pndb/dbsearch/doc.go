// Package dbsearch is dependency-based threat-space search (DB-search, after
// L. V. Allis, 1994) for k-in-a-row games, Connect-X and m,n,k alike: given
// a position and an attacker, it looks for a sequence of threats, each
// forcing the defender's reply, that ends in a completed line, and checks
// each sequence it finds against every defence before it answers Win. It
// serves the PN/DB prover (package pns) as a leaf evaluator: a Win comes
// with its first move and the cells the attack uses.
//
// # Alignments, tiers, operators
//
// The search works on its own copy of the board (board.go), where it keeps
// for every window of K cells in a line (an alignment when it holds no
// defender stone) the stones of each side; the tier of an alignment is K
// minus the attacker's stones in it. The board's sides are the colours, so
// a load changes only the cells that differ from the last position (none
// when the same position is searched for the other attacker); the windows
// of tier 1 (and 2 on m,n,k, which the verifier reads) are kept in sets
// updated by each stone, weaker ones are found by a scan when needed. A
// threat is judged by reading the counts as if its gain were played
// (evalread.go), and the board follows the DB tree as a set of applied
// threats, moving from node to node by their difference (apply.go). A threat is an operator applied to a gain
// cell g (threat.go): the attacker's stone on g and every reply of the
// defender (its cost cells) played at once. The operators, sound by
// construction and K-general (K from 3 to the board's side):
//
//   - four: after g the attacker has exactly one playable winning cell w (a
//     tier-1 alignment's empty cell), the single cost (under gravity w must
//     be playable); the defender's stone on w must not complete its own
//     line, and when it makes a four of the defender's (or, under gravity,
//     opens a winning cell above w) the next threat must be its block;
//   - three (m,n,k, K >= 4): after g no winning cell, but moves f (in a
//     tier-2 alignment through g) after which the attacker has two; the
//     costs are all the cells whose occupation leaves no such f (for K = 5
//     the classic open three: the two cells that extend it to a straight
//     four, and the far ends when the three has a gap);
//   - goal: two playable winning cells after g (a double four, an open
//     four), a three whose f no single cell breaks (a double three), or
//     under gravity a four whose forced reply opens a winning cell above it.
//
// Under gravity a gain cell is one that is playable on the search board, so
// threats stacked on cells the defender's replies fill are found ("stacked"
// operator); a gain after which the defender has a playable winning cell
// (the cell above g, "filling the column hands the defender a line") is no
// threat, and a four whose cost is not playable is not credited either. In
// the verification (below) every stone counts where it falls, so no
// sequence is credited that a filled column would refute.
//
// # The search
//
// Search (search.go, db.go) grows a tree of threat sets from the root. The
// dependency stage expands each new node with the threats that depend on
// its last gain (their alignments run through it), and their children in
// turn; the combination stage joins every new node with every older one
// when no cell is a gain of one and a cost of the other and each brings a
// threat of its own, and the next dependency stage looks for threats whose
// alignments touch both parents' gains. The stages repeat until nothing new
// appears, MaxNodes is spent or the context ends.
//
// # Global defence
//
// Each goal reached (at most MaxSequences per Search) is replayed on the
// real board by an exact AND/OR search (verify.go): the attacker plays the
// sequence's gain cells (or blocks a defender's four), the defender every
// move that can matter: a win of its own, the block of a single winning
// cell, and against a three all its counter-fours (lower-tier threats that
// force the attacker to answer) and every cell that breaks the three —
// under gravity every legal move. Any other defender move loses at once, so
// a Win is a proof within the verification's ply bound, whoever plays
// first; the random-position test checks it against a brute force. Allis's
// global defence (the defender's threats of a better tier, or a stone on a
// goal square) is thereby contained in the replay.
//
// When attacker is not the side to move, Search takes the side to move to
// pass (the implicit-threat use): the result then says what the attacker
// would win if it were its turn.
package dbsearch
