// Package vcf is the gomoku bot's threat search on the incremental board:
// VCF (victory by continuous fours: every attacking move a four, every
// defence the one cell that stops the five) and VCT (victory by continuous
// threats: fours and open threes, the defender answering a three with every
// cell that stops it or a four of its own), both as AND/OR depth-first
// searches bounded by a node budget, with a table of refuted positions.
//
// A win is reported only when every defence the search knows has been
// answered: the defender's fives are blocked, its fours answered, and under
// renju black's forbidden cells (as the patterns tell) are never taken by
// a black attacker. The defender is assumed free to take any cell, so a
// win never relies on a defence being a foul.
package vcf
