// Package sdk is what a kinrow bot author uses. A bot implements Bot (its
// description and a NewGame that returns a Player) and calls Serve from
// main; the SDK does the rest:
//
//   - the go-plugin handshake and gRPC service (protocol/botapi), a JSON
//     hclog logger on stderr (Logger, level from KINROW_LOG), exiting when
//     the host shuts the bot down or dies, and --help;
//   - its own engine.Position per game, built from the rules and the moves
//     NewGame brings, with every Play checked for legality (an illegal one
//     is refused with InvalidArgument) and Undo applied;
//   - options checked against Info().Options (OptionSet) before NewGame, so
//     unknown options and out-of-range values are refused in the host's
//     words;
//   - GenMove with that position and a context carrying the request's
//     deadline and the move's clock (MoveClockOf: the move's budget, both
//     sides' time left; the game's time control, increment included, came
//     in Game.Time); the move is sent in notation (an illegal one too, with
//     a warning in the log: the host referees);
//   - MoveShare, the share of a game clock to spend on one move, and
//     WithMoveShare, a move's context narrowed to it;
//   - the Solve stream, for a Bot that is also a Solver: one request at a
//     time, each with its own timeout; AnalyzeMoves scores every move of a
//     request with Analyze set from the solver's value of a position.
//
// The smallest bot is bots/random. Optional interfaces: Observer on the
// Player, Solver on the Bot.
package sdk
