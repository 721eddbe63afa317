// Package solve is kinrow solve's scheduler: it reads positions, one move
// list a line, hands them to one or more bot processes' solve streams and
// prints the answers in input order as soon as each is known.
//
// Lines are read in chunks (the unit the reader, the workers and the
// printer hand each other, so that a hand-over between goroutines is paid
// per chunk, not per position); each worker keeps a window of positions in
// flight on its stream and sends them in batches to a bot that takes
// batches (plugin protocol version 2). Three kinds of goroutine run: the
// reader, a sender and a receiver per worker; the caller's goroutine
// prints. A line that is no position, or longer than MaxLine, is answered
// in its place with "? REASON".
//
// The move list of a line is read by the engine's parser
// (engine.Rules.ParseMoveList for a digit list, engine.Rules.ParseMove for
// each field otherwise) and played on one board rewound for every line.
package solve
