// Package play is the SDK player over package mics's searcher, shared by
// the bots that play with it (bots/mics, and bots/gomoku for K other than
// 5): each move searched until the request's deadline or, under a game
// clock, a share of the time left (sdk.WithMoveShare), with the search's
// progress reported to the host and the searcher's board kept in step with
// the game's moves and undos.
package play
