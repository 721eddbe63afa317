// Package enginebot plays an external engine described by an engine
// manifest (host/manifest) as a referee.Player, under the same rules as a
// plugin bot.
//
// The engine is a subprocess run in the manifest's directory, held by the
// host's process runner (host/procrun: a cgroup of its own where one can be
// made, else a process group; SIGKILL if the host dies), with a minimal
// environment and an optional memory cap (Config.Memory, manifest
// max_memory; over it the engine forfeits for memory);
// the host talks to it over pipes on its stdin and stdout, and logs its
// stderr line by line (hclog, debug level), never mixing it with stdout.
// Kill sends SIGKILL to the whole group, so children the engine forked die
// with it, and waits for it bounded in time, even when it is suspended;
// Close asks it to quit (END, quit), waits at most a second, then kills the
// group anyway. Writes to the engine have deadlines, so a frozen engine
// cannot block the host.
//
// Two protocol drivers speak to engines:
//
//   - gomocup, the manager side of the Gomocup brain protocol
//     (protocol/gomocup), as Gomocup's managers speak it. At each new game,
//     within the start timeout: START or RECTSTART (RESTART for the next
//     game on the same board), INFO timeout_turn, timeout_match, rule 0,
//     max_memory (the engine's memory cap, 0 without one, unless an option
//     sets it) and the manifest's options,
//     then ABOUT, whose answer shows all that is done. Each move: INFO
//     timeout_turn when it changed, INFO time_left, then BEGIN, TURN X,Y,
//     or BOARD … DONE when the engine's view of the game is not one move
//     behind (a game set up with moves, an undo); each command is one
//     write. END at Close. While a move is awaited, MESSAGE and DEBUG
//     lines are logged, SUGGEST is answered with PLAY, and every other line
//     that is not a move is logged and skipped, as GomocupJudge skips it.
//     The engine's answer is accepted until the move's time plus its
//     tolerance (referee.Facts.Tolerance). Unless the manifest
//     says suspend = false, the engine's process group is stopped (SIGSTOP)
//     whenever it is not its move, once its threads sleep, as Gomocup's
//     judge does, and continued (SIGCONT) before anything is sent to it
//     (where cgroups serve, its cgroup is frozen and thawed instead, so
//     what it forked is stopped too).
//   - kinrow, the host's own text protocol (GTP v2 framing, protocol/gtp's
//     Client): kinrow-key KEY (an engine that signs its answers takes
//     it; others refuse it) and protocol_version at start, every command
//     with an id its answer must carry, then rules, kinrow-option KEY
//     VALUE per option, kinrow-movetime MS under a per-move limit,
//     kinrow-side COLOR (failure answers to both ignored) and play for each
//     move of a new game; play, undo,
//     kinrow-movetime MS (the move's time less a margin; a failure answer
//     is ignored) and genmove; quit at Close.
//
// Failures map to the referee's forfeits as for plugins: no answer by the
// deadline (the context) is a timeout; the engine gone (its output closed,
// a broken pipe, its process exited) wraps referee.ErrDisconnected, a crash;
// a kinrow engine's failure answer or junk instead of a move, a Gomocup
// line past 64 KiB, an answer past its bound (see MaxAnswerBytes,
// MaxMoveAnswer) and a move nobody asked for are errors, protocol errors;
// a point off the board or an occupied cell is returned as the move, for
// the referee to refuse as an illegal move.
package enginebot
