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
//   - slow: sleeps an hour before answering.
//
// -pidfile FILE writes its process id, -transcript FILE appends every
// command it receives, -square answers UNKNOWN to RECTSTART, -ignore-end
// keeps it running after END and the end of its input. It exits by itself after two minutes.
package main
