//go:build windows

package pluginbot

import "io/fs"

// ownedByMe is true: the temporary directory is the user's own on Windows.
func ownedByMe(fs.FileInfo) bool { return true }

// pluginsListenOnTCP: go-plugin's bots listen on a loopback TCP port on
// Windows (no unix sockets there).
const pluginsListenOnTCP = true
