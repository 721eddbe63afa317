// Command kinrowengine is an engine speaking the kinrow text protocol (not a
// plugin) for the host's engine tests, run through an engine manifest. It
// plays random legal moves under any rules, and misbehaves after -after N
// good moves as -mode says:
//
//   - random: never misbehaves (the default);
//   - silent: answers nothing to genmove;
//   - junk: answers genmove with a line that is not a GTP answer;
//   - illegal: answers genmove with a move off the board;
//   - crash: exits with status 3 at genmove;
//   - refuse: answers genmove with a failure;
//   - huge: answers genmove with one line of 8 MiB;
//   - long: answers genmove with 30 lines of 60 KiB (1.8 MB);
//   - wordy: answers genmove with 1,000 digits;
//   - stray: answers genmove, then writes a second answer nobody asked for.
//
// -pidfile FILE writes its process id, -transcript FILE appends every
// command it receives. It answers kinrow-option KEY VALUE with success,
// protocol_version 2, quit by exiting. It exits by itself after two minutes.
package main
