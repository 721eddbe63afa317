//go:build unix

package pluginbot

import (
	"syscall"
	"time"
)

// cpuTime is this process's user+system CPU time (bots are other processes).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
