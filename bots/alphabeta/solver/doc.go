// Package solver solves Connect-X positions exactly on a 64-bit bitboard:
// boards of R rows and C columns with (R+1)*C <= 64, k in a row to win.
// Connect-4 (6x7) is the case it is tuned for, after Pascal Pons' solver.
//
// # Scores
//
// A score is the value of a position for the side to move, on the scale of
// the shared Connect-4 test files: positive when it wins, 0 for a draw,
// negative when it loses. A win with s stones of the winner on the board
// scores floor((R*C+1)/2) + 1 - s, so on 6x7 a win with 4 stones scores
// 22 - 4 = 18 and the slowest possible win (21 stones) scores 1; a loss is
// the negated score of the opponent's win. With weak, only the sign is
// computed (1, 0, -1), which needs far fewer nodes.
//
// # Search
//
// The score is found by null-window negamax probes that halve the range of
// possible scores each time, starting near 0 where most scores lie. Each
// node first answers the opponent's immediate threats (two or more forced
// blocks lose at once), never plays under a cell where the opponent would
// win, bounds the score by the number of moves left and its sign by the
// parity strategies (Allis' claimeven and the first player's odd threat,
// generalised to odd columns taken in pairs: see parity.go), and consults a
// transposition table that holds a lower and an upper bound per position
// (see table.go: entries are keyed so that no collision can return a bound
// of another position). There are two tables: a small one, which stays in
// the CPU's cache, for the many positions with at most 18 empty cells, and
// a large one, grown as searches need it, for the few nearer the root,
// whose entries save whole subtrees. A node with more than 10 empty cells
// first looks up its children and stops at once when one of them proves a
// cutoff (enhanced transposition cutoff); every node first checks its
// children's parity bounds the same way. Children are
// searched with the table's move first and the others ordered by the
// winning cells they create, centre columns first on ties, with
// principal-variation (null-window) re-searches.
//
// Weak solving runs the same probes and stops once the sign is known;
// near 0, one search of the window (-1, 1) gives the sign.
//
// Positions far from the end (the large table's) are stored under the
// smaller of their key and their mirror image's, and a position that is
// its own mirror image searches only its left half and centre: from the
// empty board and the openings near the centre, mirror images meet often.
//
// # Threads
//
// With SetThreads(n), a search that grows past about a million nodes is
// joined by n-1 helper goroutines: each searches the probe (the window)
// the main worker is on, and the first to finish a probe gives its value
// to all (lazy SMP, probe by probe). They share
// the large table, whose entries are read and written whole and atomically
// and checked by their tag, so that every bound a worker reads was proved
// for that position by some worker, and each keeps its own small table.
// Far from the end, a worker marks the node it searches busy and leaves a
// sibling another worker is searching for the end of its move list
// (simplified ABDADA), so the workers split the tree.
//
// A Solver keeps its tables from one call to the next, so a run over many
// positions of one game shares what earlier positions proved.
package solver
