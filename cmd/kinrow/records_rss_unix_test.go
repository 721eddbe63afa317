//go:build unix

package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// maxRSS is the peak resident set of the process cmd ran, in bytes.
func maxRSS(cmd *exec.Cmd) (int64, bool) {
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss), true // bytes there
	}
	return int64(ru.Maxrss) << 10, true // KiB
}
