// Package testbuild builds kinrow's binaries for end-to-end tests: the host,
// every bot under bots/ and, on request, the misbehaving test bots under
// internal/testbots. Tests call it from TestMain (Main makes the directory,
// builds into it, runs the tests and cleans up) so that they run against
// real executables through real pipes; ShortTemp gives them directories
// with paths short enough for unix sockets.
package testbuild
