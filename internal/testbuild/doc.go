// Package testbuild builds kinrow's binaries for end-to-end tests: the host,
// every bot under bots/ and, on request, the misbehaving test bots under
// internal/testbots. Tests call it from TestMain so that they run against
// real executables through real pipes.
package testbuild
