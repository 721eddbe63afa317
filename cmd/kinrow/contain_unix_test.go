//go:build unix

package main

import (
	"syscall"

	"github.com/kinrow/kinrow/host/procrun"
)

func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

func procrunDetect() string { return procrun.Detect().String() }
