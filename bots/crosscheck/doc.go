// Package crosscheck holds no code, only tests: every board kinrow has (the
// engine's Position, mics's Board, the 64-bit bitboard of
// bots/alphabeta/solver, the multi-word bitboard of bots/alphabeta/wide)
// must agree with the engine on the winner of random games of every
// variant it plays, so the boards cannot drift apart; mics's board, which
// plays every variant, must also agree on whether each side can win at once. dbsearch's board,
// which is unexported, is checked the same way by its own package's test
// (bots/pndb/dbsearch). alphabeta's general search plays on the engine's
// Position itself, so it agrees by construction. Games of renju from random
// openings check that mics and alphabeta's search never answer a move the
// referee would forfeit (forbidden), and games of standard gomoku and renju
// that mics beats random moves.
package crosscheck
