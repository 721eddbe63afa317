// Package testpos builds the positions the bots' tests start from: rules
// by name and a move list in the engine's notation ("a8 a1 b8", or column
// digits under gravity), every move checked as the referee would.
package testpos
