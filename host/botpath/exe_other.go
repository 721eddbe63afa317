//go:build !windows

package botpath

import "io/fs"

// exeSuffix: executables have no suffix here.
const exeSuffix = ""

// executableMode reports whether a file's mode lets someone run it.
func executableMode(m fs.FileMode) bool { return m&0o111 != 0 }
