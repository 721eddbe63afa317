// Package c4set reads the shared Connect-4 test sets for the bots' tests.
//
// The sets (Pascal Pons' Test_L*_R*.txt) live beside the repository, in
// ../shared/testdata/connect4 from the module root. Each line holds a move
// list (columns from 1), the exact score for the side to move and the score
// of each of the seven columns ("-" for a full one). Read finds them from
// the repository's root (internal/testbuild.Root), so every package reads
// the same files whatever its depth, and skips the test when they are
// absent.
package c4set
