package testproc

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Stat returns the fields of /proc/PID/stat after the command name: the
// state letter first (R, S, D, T, Z…), then the parent's pid, and so on;
// nil once the process is gone (or where there is no /proc).
func Stat(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	// The command name, in parentheses, may hold spaces and parentheses:
	// the fields follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// State returns the state letter of process pid as /proc/PID/stat gives
// it (R, S, D, T, Z…), or "" when there is no such process.
func State(pid int) string {
	if f := Stat(pid); len(f) > 0 {
		return f[0]
	}
	return ""
}

// Alive reports whether process pid runs: it exists and is not a zombie.
func Alive(pid int) bool {
	s := State(pid)
	return s != "" && s != "Z"
}
