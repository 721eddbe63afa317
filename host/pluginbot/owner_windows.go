//go:build windows

package pluginbot

import (
	"io/fs"

	"golang.org/x/sys/windows"
)

// ownedByMe is true: the temporary directory is the user's own on Windows.
func ownedByMe(fs.FileInfo) bool { return true }

// pidAlive reports whether a process with this id exists (one that cannot
// be opened for lack of rights counts as alive).
func pidAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err == windows.ERROR_ACCESS_DENIED
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == 259 // STILL_ACTIVE
}

// pluginsListenOnTCP: go-plugin's bots listen on a loopback TCP port on
// Windows (no unix sockets there).
const pluginsListenOnTCP = true
