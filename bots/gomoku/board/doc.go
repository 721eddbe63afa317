// Package board is the gomoku bot's incremental board: stones on a padded
// grid, and for every cell and direction the line key of package pattern,
// its patterns for both colours, its threat class and its score, all
// brought up to date by each move and undo (the forty cells on the four
// lines through the move, nothing else). The evaluation is the sum of the
// scores of the empty cells of each colour, kept as running totals, so
// Eval costs nothing; candidate moves are the empty cells within two of a
// stone, counted incrementally too. Move, Undo, Eval and Candidates
// allocate nothing.
package board
