// Package mics is the engine of the kinrow-bot-mics bot: a budgeted,
// selective alpha-beta search for k-in-a-row games on boards too large for
// a full-width search (m,n,k up to 70×70×10 and beyond, Connect-X up to
// 38×58×12), ordered by the MICS cell heuristic.
//
// # Where the name comes from
//
// The cell heuristic follows Nathaniel Hayes and Teig Loge, "Developing a
// Memory Efficient Algorithm for Playing m,n,k Games", published at the
// Midwest Instruction and Computing Symposium (MICS) 2016: "MICS" is the name
// of that symposium. A 2022 course report on the m,n,k-game (Xuanqiang Huang
// and Giovanni Spadaccini, "Progetto Algoritmi a.s. 2021/2022", University of
// Bologna) extended the heuristic and read its name as "Minimum Incomplete
// Cell Set"; this package keeps that reading. The free-cell array with O(1)
// mark and unmark, the two classes ranked above the heuristic sum, the
// heap-select of the best l cells and the node-budget calibration shared
// over the root moves all come from that report; the code is our own.
//
// # The pieces
//
//   - Board (board.go) keeps the stones, the free cells in an array with an
//     index per cell (Mark swaps the cell with the last free one, Unmark swaps
//     it back: both O(1) for the free set), and for every K-window of the four
//     directions the number of stones of each side, updated in O(K) per move.
//     The per-cell sums the heuristic reads are updated along with them
//     (O(K) per window whose state changes, so O(K²) per move), which makes
//     the MICS value of a cell an O(1) lookup. The line rule is the
//     board's: where only exactly K wins (exact; black in renju) a window
//     is open for a side only while no stone of the side flanks it, so an
//     overline is no win, no threat and worth nothing.
//   - The MICS value (heuristic.go): every window still open for a side (no
//     opponent stone in it) contributes to each of its cells how much a stone
//     there would bring that window closer to completion, growing
//     geometrically with the stones already in it; the side's own windows
//     weigh double (alignment with own stones) and each stone next to the cell
//     adds a little (adjacency). Two classes rank above anything that sum can
//     reach: a cell completing a window that misses one stone (a win, or the
//     forced block of the opponent's win) and a cell that makes two or more
//     windows each one stone from completion (a double threat, own or the
//     opponent's to prevent).
//   - Heap-select (heapselect.go) picks the best l cells of n in
//     O(n log l), returned best first.
//   - Searcher (search.go) runs a negamax alpha-beta that explores only the
//     best l cells of each node (on Connect-X the candidates are the playable
//     cell of each column), to a depth limit, within a node budget. The budget
//     comes from a calibration (nodes this machine searches per second, so per
//     move time), is shared over the root moves best first with the unused part
//     passing to the next, and is refined after every move; the depth limit
//     adapts from move to move and deepens while the time allows. A node where
//     the opponent threatens to win searches only the blocks, one ply further
//     at the horizon. The clock is read every 64 nodes: at the deadline less
//     the reserve every kinrow bot keeps (sdk.Reserve: 40%, at least 60 ms)
//     the search stops and the best move found so far is
//     answered; a legal fallback move is held from the very start. The search
//     allocates nothing. Under renju the engine's position follows the board
//     and judges black's candidates only: fouls are never searched, and a
//     white five whose only block is forbidden to black is a win for white.
package mics
