package testproc

import (
	"bytes"
	"fmt"
	"os"
)

// State returns the state letter of process pid as /proc/PID/stat gives
// it (R, S, D, T, Z…), or "" when there is no such process.
func State(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// the state follows the last ')'.
	f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	if len(f) == 0 {
		return ""
	}
	return string(f[0])
}

// Alive reports whether process pid runs: it exists and is not a zombie.
func Alive(pid int) bool {
	s := State(pid)
	return s != "" && s != "Z"
}
