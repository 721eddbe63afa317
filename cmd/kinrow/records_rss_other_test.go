//go:build !unix

package main

import "os/exec"

// maxRSS is not measured here.
func maxRSS(*exec.Cmd) (int64, bool) { return 0, false }
