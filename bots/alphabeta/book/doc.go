// Package book is kinrow's Connect-X opening book: the exact score of every
// position up to a number of plies, proven by package solver, in a compact
// file the alphabeta bot reads.
//
// # Positions and keys
//
// A position is keyed by its bitboard as package solver lays it out
// (column-major, rows+1 bits a column, so (rows+1)*cols <= 64): the
// stones of the side to move plus every stone, which is unique for every
// position of one board. A position and its mirror image (columns read
// right to left) have the same score; the book keeps only the smaller of
// their two keys (Fold). Positions whose game is over are not kept.
//
// # Scores
//
// Scores are those of package solver and the shared Connect-4 test files:
// for the side to move, positive when it wins (the sooner the larger), 0
// for a draw, negative when it loses.
//
// # File format
//
// Little-endian throughout:
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
// Nine bytes a position plus 20: on 6x7, every position of at most 4
// stones (mirrors folded) is 719 positions, 6,491 bytes; of at most 8,
// 129,498 positions, 1.2 MB. Readers
// find a key by binary search.
//
// # Building
//
// Build enumerates every position up to the book's plies, folds mirrors,
// solves those of exactly that many stones (the frontier) with a solver
// per worker, and derives every shallower position from its children by
// negamax: a position's score is the best over its moves of an immediate
// win's score, a draw when the move fills the board, or the negated score
// of the child. Each frontier score is appended to a journal as soon as it
// is proven, so a build stopped at any point resumes where it was.
package book
