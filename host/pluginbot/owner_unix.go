//go:build unix

package pluginbot

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether a file belongs to this process's user.
func ownedByMe(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}

// pidAlive reports whether a process with this id exists (signal 0; one of
// another user answers EPERM, and counts as alive).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// pluginsListenOnTCP: go-plugin's bots listen on a unix socket here.
const pluginsListenOnTCP = false
