//go:build !linux

package procrun

// setRlimits sets no limit where there is no prlimit: the bot's tasks,
// file size and CPU are not capped outside Linux (Detect says so).
func setRlimits(int, Limits, bool) error { return nil }

// DefaultMemoryCap is the memory cap a bot gets by default: none outside
// Linux (a job's memory limit caps committed memory, which a JVM or a
// large table reserves ahead of use).
func DefaultMemoryCap() int64 { return 0 }
