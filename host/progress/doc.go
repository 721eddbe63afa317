// Package progress reports how far a long run has come on stderr: a
// progress bar when stderr is a terminal, else a line at most every so
// often. kinrow match counts games with it, kinrow book build positions,
// kinrow openings openings found. Log lines written through Log never
// land inside the bar's line.
package progress
