// Command bigmove is a test bot whose GenMove answer is oversized, as
// kind= says: "move" answers a move of bytes= bytes (default 64 MiB),
// "progress" streams one progress report that big before a legal move,
// "error" fails with an error message that big. The host must refuse each
// answer at its size cap without holding it whole.
package main
