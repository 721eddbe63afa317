// Package search is the gomoku bot's move search: principal variation
// search (negamax with null windows) on the incremental board of package
// board, with a transposition table, iterative deepening, a history table
// and late-move reductions; threat search (package vcf) at the leaves (VCF
// for the side to move) and at the root (VCF, then VCT: this package's
// own and, where the rules let it be sound, pndb's dependency-based search
// dbsearch); a proven win is played at once, and when the opponent has a
// VCF the root keeps only the moves after which it has none.
//
// Every node first answers the forcing situations: a five to take, the
// opponent's five to block (two lose), an open four or double four of its
// own (a win in three), an open three of the opponent's (only fours of its
// own and the cells that stop the three are searched). Other nodes search
// the cells within two of a stone, best threat class and score first, the
// weakest cut off at depth.
//
// The time manager never lets a move run late: it keeps 40% of the move's
// share in hand (at least 60 ms, at most 60%: sdk.Reserve, the policy of every kinrow bot), stops the search
// there and starts no new iteration past three quarters of it, checking the
// clock every 16 nodes (the threat searches every 64 of theirs); the
// transposition table's pages are touched when the game starts, not on
// the first move's clock; the best move of the last
// finished iteration (or any root move proven better in the unfinished
// one) is played. Under renju black's candidates at the root are checked
// with the engine's judge (engine.Position.Foul), so a foul is never played.
package search
