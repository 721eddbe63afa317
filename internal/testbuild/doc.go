// Package testbuild builds kinrow's binaries for end-to-end tests: the host,
// every bot under bots/ and, on request, the misbehaving test bots under
// internal/testbots. Tests call it from TestMain so that they run against
// real executables through real pipes.
//
// It also holds what several packages' tests share about processes and
// tools: a process's state from /proc (ProcStat, ProcState), the pid a
// test bot wrote (ReadPid), copying an executable (CopyExecutable) and a
// headless Chromium or a skip (ChromiumOrSkip).
package testbuild
