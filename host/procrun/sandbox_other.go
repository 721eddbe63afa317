//go:build !linux

package procrun

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
)

// SandboxDetect says what the sandbox gives bots on this machine: nothing
// outside Linux.
func SandboxDetect() SandboxStatus {
	return SandboxStatus{Missing: []string{fmt.Sprintf("no sandbox on %s: namespaces are Linux's (the bot runs as the host's user, with its files and network)", runtime.GOOS), hostSocketDir}}
}

// box is never made outside Linux.
type box struct{}

func sandboxFor(_ *exec.Cmd, cfg Config) (*box, error) {
	if cfg.Sandbox.Mode == SandboxRequire {
		return nil, errors.New("refused by --sandbox=require: " + SandboxDetect().String())
	}
	return nil, nil
}

func (*box) prepare(*exec.Cmd) error       { return nil }
func (*box) startedChild()                 {}
func (*box) release(context.Context) error { return nil }
func (*box) close()                        {}
func (*box) ownUID() bool                  { return false }
