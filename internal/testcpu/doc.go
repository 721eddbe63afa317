// Package testcpu gives tests the CPU time their own process has used, to
// tell a bot's thinking from its waiting (a search that answers in time
// on a loaded machine, a deadline kept without spinning). Where the
// system has no getrusage (Windows), the test that asks is skipped.
package testcpu
