package botpath

import "io/fs"

// exeSuffix ends every executable's name on Windows, where a plugin is
// kinrow-bot-NAME.exe.
const exeSuffix = ".exe"

// executableMode: Windows has no execute bit (Go reports none); the .exe
// suffix says a file runs.
func executableMode(fs.FileMode) bool { return true }
