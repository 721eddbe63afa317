// Command badstream is a test bot that breaks plugin protocol version 2 (the
// Session stream) as its option mode= says, from its first genmove on:
//
//   - unasked: answers a move for a request the host never sent;
//   - wrongkind: answers the genmove with a done (NewGame's answer);
//   - outoforder: answers the move, then a failure for the move before it,
//     which the move's answer already passed;
//   - close: closes its end of the stream (the process lives on);
//   - refuseplay: fails every Play it is told (plays otherwise legally).
//
// With mode=none (the default) it plays the first legal move.
package main
