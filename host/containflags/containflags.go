// Package containflags holds the values of the command-line flags that
// say how bots are contained (--sandbox, --bot-suspend, --bot-memory,
// --bot-env): each a flag value (String, Set and Type, as pflag.Value)
// that checks its text through host/procrun and says what is accepted;
// and the checks of what they ask: CheckSandbox refuses --sandbox=require
// where the kernel gives no full sandbox, LogContainment says at start-up
// how the bots are held.
package containflags

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/host/procrun"
)

// Sandbox is --sandbox=auto|require|off.
type Sandbox struct{ Mode procrun.SandboxMode }

func (s *Sandbox) String() string { return s.Mode.String() }

// Type names the accepted values in help.
func (s *Sandbox) Type() string { return "auto|require|off" }

// Set reads a mode.
func (s *Sandbox) Set(v string) (err error) {
	s.Mode, err = procrun.ParseSandboxMode(v)
	return err
}

// Suspend is --bot-suspend: alone (or =true) every plugin bot, =NAME,NAME
// those bots, =false none. Give it "true" as the value when the flag
// stands alone (pflag's NoOptDefVal).
type Suspend struct {
	All   bool
	Names []string
}

// Type names the accepted values in help.
func (s *Suspend) Type() string { return "NAME,..." }

func (s *Suspend) String() string {
	if s.All {
		return "true"
	}
	return strings.Join(s.Names, ",")
}

// Set reads true, false or bot names separated by commas.
func (s *Suspend) Set(v string) error {
	switch v {
	case "true", "1":
		s.All = true
		return nil
	case "false", "0":
		s.All, s.Names = false, nil
		return nil
	}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n == "" || strings.ContainsAny(n, "/\\ =") {
			return fmt.Errorf("--bot-suspend %q: want no value (every plugin bot), true, false or bot names separated by commas", v)
		}
		s.Names = append(s.Names, n)
	}
	return nil
}

// Memory is a size in bytes read by procrun.ParseSize (0: no cap).
type Memory int64

// Type names the accepted values in help.
func (m *Memory) Type() string { return "SIZE" }

func (m *Memory) String() string {
	if *m == 0 {
		return ""
	}
	return procrun.FormatSize(int64(*m))
}

// Set reads a size such as 350M or 2GiB.
func (m *Memory) Set(s string) error {
	n, err := procrun.ParseSize(s)
	*m = Memory(n)
	return err
}

// Env lists environment variable names (repeatable).
type Env []string

// Type names the accepted values in help.
func (e *Env) Type() string   { return "NAME" }
func (e *Env) String() string { return strings.Join(*e, ",") }

// Set adds a name, checked by procrun.CheckEnvName.
func (e *Env) Set(s string) error {
	if err := procrun.CheckEnvName(s); err != nil {
		return err
	}
	*e = append(*e, s)
	return nil
}

// LogContainment says at start-up how the bots are held.
func LogContainment(log hclog.Logger, mode procrun.SandboxMode) {
	sb := "off (--sandbox=off)"
	if mode != procrun.SandboxOff {
		sb = procrun.SandboxDetect().String()
	}
	log.Info("bot containment", "in force", procrun.Detect().String(), "sandbox", sb)
}

// CheckSandbox refuses to go on under --sandbox=require without the full
// sandbox, saying what is missing.
func CheckSandbox(mode procrun.SandboxMode) error {
	if mode != procrun.SandboxRequire {
		return nil
	}
	if st := procrun.SandboxDetect(); !st.Full {
		return fmt.Errorf("--sandbox=require: no bot can start here: the sandbox is %s", st)
	}
	return nil
}
