// Package testbots holds misbehaving kinrow bots for the host's tests; they
// are never installed. Each subdirectory but tb is a command, built as
// kinrow-bot-NAME by the tests that use it (go build -o DIR/kinrow-bot-hang
// ./internal/testbots/hang):
//
//   - hang: plays legally for hang_after=N genmoves (default 0), then
//     ignores cancellation, burning CPU for at most two minutes.
//   - crash: exits with status 3 inside GenMove after crash_after=N good
//     moves (default 0).
//   - illegal: answers an illegal move, kind=occupied|full|offboard|garbage
//     (default offboard; garbage is "zz!9"; occupied and full fall back to
//     offboard when the board has no such cell or column).
//   - junk: prints junk on stdout before the handshake, so start-up fails.
//   - junkafter: plays legally but writes junk to file descriptor 1 (the
//     host's plugin pipe) in every GenMove.
//   - late: answers legally after sleeping late_ms (default 3000), ignoring
//     cancellation.
//   - sleeper: sleeps 60 s before serving, so the handshake times out.
//   - forker: starts a child "sleep 300" in its own process group at every
//     NewGame, then hangs like hang in GenMove.
//   - oldproto: speaks plugin protocol version 0, which the host refuses.
//   - clockreport: logs on stderr the clock it receives (the time control
//     at NewGame, the move's budget and both sides' time left at GenMove).
//   - bigmove: answers GenMove past the host's size caps, as kind= says
//     (move, progress or error; bytes=N, default 64 MiB).
//   - refuser: takes games=N new games per process (default 1) and refuses
//     the next ones; refuses every game of kind refuse_kind (connectx or
//     mnk, default none).
//   - v1bot: a bot of plugin protocol version 1 (an RPC per request, no
//     Session method), as built before version 2; plays the first legal
//     move.
//   - badstream: breaks version 2's Session stream as mode= says (an
//     unasked answer, the wrong kind, out of order, the stream closed, a
//     failed Play).
//   - escaper: at every GenMove starts a child that escapes its process
//     group and session (how=setsid, `setsid -f sh -c 'sleep 200'`) or
//     forks twice (how=doublefork), holding the bot's stdout and stderr,
//     then plays (mode=play) or hangs (mode=hang); each child appends its
//     pid to $TMPDIR/escaper.pids.
//   - hog: at GenMove allocates and touches memory without end
//     (mb_per_step MiB at a time) until it is killed.
//   - flood: writes mb MiB (default 11) of lines to stderr at every
//     GenMove, then plays; to=stdout writes them to file descriptor 1 (the
//     host's plugin pipe) instead, line=1 as one line.
//   - badaddr: answers the plugin handshake with a TCP address
//     (127.0.0.1:45678), or with KINROW_BADADDR=unix a socket outside its
//     private directory, or with KINROW_BADADDR=link a symbolic link it
//     makes in its private directory to the socket $KINROW_BADADDR_TARGET.
//   - intruder: at its first GenMove (or Solve) tries one of the escapes of
//     issue 23 (attack=environ, records, ptrace, cgroup, network, files,
//     fds: the host's secrets in /proc, its --out file, ptrace of the
//     host, leaving its cgroup, the network, the host's files, inherited
//     descriptors; and issue 35's disk: 64 MiB into its socket
//     directory), reports on stderr what it got or why it was refused,
//     then plays; intruderengine is the same as a kinrow-protocol engine.
//
// Three are engines, not plugins, run through engine manifests
// (host/manifest) and built under their own names: gomocupbrain speaks the
// Gomocup brain protocol and kinrowengine the kinrow text protocol, both
// playing random moves or misbehaving as their -mode flag says, and
// intruderengine (above).
//
// Every one exits by itself after at most two minutes (tb.Limit), and has
// a negative strength so a host never picks it as its default bot.
package testbots
