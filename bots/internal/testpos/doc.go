// Package testpos builds the rules and positions the bots' tests start
// from: Rules by name; Of, the position after a move list in the engine's
// notation ("a8 a1 b8", or column digits under gravity), every move checked
// as the referee would; Random, a seeded random walk of legal moves that
// stops short of the game's end; Near, whether a cell lies by a stone,
// for generators of clustered, game-like positions.
package testpos
