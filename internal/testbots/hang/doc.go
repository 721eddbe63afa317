// Command hang is a test bot that plays legally for hang_after genmoves,
// then ignores cancellation in GenMove (burning CPU, for at most two minutes).
package main
