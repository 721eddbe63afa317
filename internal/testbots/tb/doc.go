// Package tb holds what the misbehaving test bots share: a bounded
// lifetime, a description, a legal player, a CPU-burning hang, and IntBot,
// a bot of one int option whose player each misbehaving bot writes as a
// function of it (often with Moves, a player made of a move function, or
// After, one that misbehaves after some good moves); and Board, the game
// and command loop of the test engines that speak the kinrow text protocol.
package tb
