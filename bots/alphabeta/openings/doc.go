// Package openings makes balanced openings for matches: distinct
// positions of a given number of plies, mirror images folded, whose value
// is within a bound of 0, written in the move-list format `kinrow match
// --openings` reads.
//
// Candidates are random games of P plies drawn from a seeded generator
// (every move uniform among those that leave the game open), so a seed
// gives the same candidates in the same order on every machine. Each is
// valued:
//
//   - Connect-X (freestyle, gravity) is proven: by the shipped opening
//     book when it holds the position, otherwise by the exact solver
//     (package solver on 64-bit boards, package wide past them), with a
//     time limit per position; a position not proven in time is skipped.
//   - Other rules (m,n,k, gomoku, renju) are searched, not proven:
//     alphabeta's search to a fixed depth gives a heuristic value in its
//     evaluation units, and the margin applies to it. A search that proves
//     a win or loss gives the score of that proof.
//
// The output names how each opening was valued in a comment line before
// it.
package openings
