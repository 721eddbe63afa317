// Package book is kinrow's Connect-X opening book: what package solver
// proved of positions near the start of the game, in a compact file the
// alphabeta bot reads. A full book holds the exact score of every
// position up to a number of plies; a strategy book holds the positions
// that one side's (or each side's) strategy reaches, each with its best
// move: the side plays the book's move, the other side any move.
//
// # Positions and keys
//
// A position is keyed by its bitboard as package solver lays it out
// (column-major, rows+1 bits a column, so (rows+1)*cols <= 64): the
// stones of the side to move plus every stone, which is unique for every
// position of one board. A position and its mirror image (columns read
// right to left) have the same score; the book keeps only the smaller of
// their two keys (Fold), and a move in the orientation of that key (Move
// mirrors it back). Positions whose game is over are not kept.
//
// # Scores
//
// Scores are those of package solver and the shared Connect-4 test files:
// for the side to move, positive when it wins (the sooner the larger), 0
// for a draw, negative when it loses. A weak entry holds only the sign (1,
// 0, -1); Score and Lookup give exact scores only.
//
// # File format
//
// Little-endian throughout. Version 1 (scores only, a full book):
//
//	offset  size     field
//	0       8        magic "KRBOOK1\n"
//	8       1        rows
//	9       1        cols
//	10      1        k (stones in a row that win)
//	11      1        plies: every position of at most this many stones is in the book
//	12      4        n, the number of entries
//	16      8n       keys, strictly increasing (folded: Fold)
//	16+8n   n        scores, one signed byte each, in the order of the keys
//	16+9n   4        CRC-32 (IEEE) of every byte before it
//
// Version 2 (a move and a weak flag per position; full or strategy):
//
//	offset  size     field
//	0       8        magic "KRBOOK2\n"
//	8       3        rows, cols, k
//	11      1        plies: full, every position of at most this many stones; strategy, the deepest
//	12      1        kind: 0 full, 1 strategy
//	13      3        reserved, zero
//	16      4        n
//	20      8n       keys, strictly increasing
//	20+8n   n        scores, signed bytes
//	20+9n   n        info: the move's column (0x7f: none) | 0x80 when the score is only its sign
//	20+10n  4        CRC-32 (IEEE) of every byte before it
//
// Nine bytes a position plus 20 (version 1), ten plus 24 (version 2): on
// 6x7, every position of at most 4 stones (mirrors folded) is 719
// positions, 6,491 bytes; of at most 8, 129,498 positions, 1.2 MB.
// Readers take both versions, check everything and find a key by binary
// search; a book is written in the version it was made or read in.
//
// # Building a full book
//
// Build enumerates every position up to the book's plies, folds mirrors,
// solves those of exactly that many stones (the frontier) with a solver
// per worker, and derives every shallower position from its children by
// negamax: a position's score is the best over its moves of an immediate
// win's score, a draw when the move fills the board, or the negated score
// of the child. Each frontier score is appended to a journal as soon as it
// is proven, so a build stopped at any point resumes where it was.
//
// # Building a strategy book
//
// BuildStrategy unfolds each side's strategy ply by ply from the empty
// board: at the side's positions it decides a move (a win when there is
// one, else a draw, proved by weak solves, the sign only, so its entry is
// weak unless it wins at once or a known book scored it exactly; else,
// with SlowestLoss, the slowest loss, every move solved exactly, its entry
// exact, or one that does not lose at once), at the other side's it
// expands every move that does not end the game. The first player's
// strategy up to XPlies and the second's up to OPlies make one book (their
// positions differ in the parity of their stones). The positions of one
// ply are decided by a solver per worker, whose tables stay from ply to
// ply; each decision goes to a journal that resumes any later build of the
// same board, deeper or not.
package book
