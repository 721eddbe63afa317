// Command refuser is a test bot that refuses new games: it takes games=N
// games per process (default 1) and refuses the next ones, and refuses
// every game of kind refuse_kind (connectx or mnk; default none). It plays
// the first legal move of the games it takes.
package main
