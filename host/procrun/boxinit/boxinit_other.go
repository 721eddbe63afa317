//go:build !linux

package boxinit

// Main returns at once: there is no sandbox outside Linux.
func Main() {}
