// Package view is kinrow's web viewer: a local page (its HTML, script and
// style embedded in the binary, nothing fetched from the network) that
// replays the games of records files and, fed by a Hub, shows a running
// match live.
//
// Replay: GET /api/games lists the games (filters ?bot=, ?result=,
// ?reason=), /api/games/N gives game N's moves and times, and
// /api/games/N/svg?ply=P draws its position (host/recordfmt's SVG). The
// page keeps the game and the ply in its URL (/?game=N&ply=P) so that a
// position can be shared.
//
// Live: the match runner calls the Hub's GameStarted, Move, GameEnded and
// Summary; GET /api/events streams them to every page as server-sent
// events (a snapshot first), /api/live/ID/svg draws a running game.
//
// The server listens on loopback unless told otherwise ([Listen] warns in
// the log for another address), and bad input (a file that is not
// records, a torn last line, a game that does not exist) is answered with
// a message on the page while the server goes on.
package view
