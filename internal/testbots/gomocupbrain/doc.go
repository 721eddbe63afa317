// Command gomocupbrain is a Gomocup brain (not a kinrow plugin) for the
// host's engine tests, run through an engine manifest. It plays random legal
// moves, printing a MESSAGE and a DEBUG line before each, and misbehaves
// after -after N good moves as -mode says:
//
//   - random: never misbehaves (the default);
//   - silent: answers nothing;
//   - junk: answers a line that is not a Gomocup answer;
//   - illegal: answers a point off the board (X = the width);
//   - occupied: answers a point already taken;
//   - crash: exits with status 3;
//   - error: answers ERROR;
//   - slow: sleeps an hour before answering;
//   - huge: writes a MESSAGE line of 8 MiB instead of its move;
//   - flood: writes 8 MiB of MESSAGE lines, then its move;
//   - stray: answers its move, then a second move nobody asked for.
//
// -pidfile FILE writes its process id, -transcript FILE appends every
// command it receives, -square answers UNKNOWN to RECTSTART, -ignore-end
// keeps it running after END and the end of its input. It exits by itself
// after two minutes.
//
// Other flags make it behave like Rapfi, the Gomocup champion, under a
// manager: -start-delay D before OK to START (and RESTART); -info-delay D
// over INFO max_memory (Rapfi sizes its hash table then); -first-over D and
// -later-under D: its first search takes timeout_turn plus D, the later
// ones timeout_turn less D; -race D: after each move it stays "thinking"
// for D of CPU time and drops the command word it reads meanwhile, so that
// "TURN 9,4" read then is answered "ERROR Unknown command: 9,4", as Rapfi's
// command loop does; -noise writes a junk line, an ERROR and an OK before
// every move; -mute-about answers nothing to ABOUT; -whole-reads exits with status 5 when a read of its input
// ends inside a line (a command written in pieces).
package main
