// Command crash is a test bot that exits with status 3 inside GenMove after
// crash_after good moves.
package main
