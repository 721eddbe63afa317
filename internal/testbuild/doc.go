// Package testbuild builds kinrow's binaries for end-to-end tests: the host,
// every bot under bots/ and, on request, the misbehaving test bots under
// internal/testbots. Tests call it from TestMain (Main makes the directory,
// builds into it, runs the tests and cleans up) so that they run against
// real executables through real pipes; ShortTemp gives them directories
// with paths short enough for unix sockets.
//
// It also holds what several packages' tests share about executables and
// tools: the pid a test bot wrote (ReadPid), copying an executable
// (CopyExecutable) and a headless Chromium or a skip (ChromiumOrSkip); a
// process's state is internal/testproc's.
package testbuild
