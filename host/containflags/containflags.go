// Package containflags holds the values of the command-line flags that
// say how bots are contained (--sandbox, --bot-suspend, --bot-memory,
// --bot-pids, --bot-file-size, --bot-cpus, --bot-env): each a flag value
// (String, Set and Type, as pflag.Value) that checks its text through
// host/procrun and says what is accepted; the limits they ask as they
// stand on this machine (Limits: in force or not, and by what); and the
// checks of what they ask: CheckSandbox refuses --sandbox=require where the
// kernel gives no full sandbox, CheckLimits where a default limit is not
// in force, LogContainment says at start-up how the bots are held.
package containflags

import (
	"fmt"
	"strconv"
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
// those bots only, =false none. Give it "true" as the value when the flag
// stands alone (pflag's NoOptDefVal); its default is All.
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
	var names []string
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n == "" || strings.ContainsAny(n, "/\\ =") {
			return fmt.Errorf("--bot-suspend %q: want no value (every plugin bot), true, false or bot names separated by commas", v)
		}
		names = append(names, n)
	}
	s.All, s.Names = false, append(s.Names, names...)
	return nil
}

// NoLimit spells "no limit" for the limit flags (--bot-memory none,
// --bot-pids none, --bot-file-size none).
const NoLimit = "none"

// Size is a size in bytes read by procrun.ParseSize, or NoLimit: --bot-memory
// and --bot-file-size. The zero value is the flag not given (the default
// applies); a negative one is NoLimit.
type Size int64

// Type names the accepted values in help.
func (m *Size) Type() string { return "SIZE|none" }

func (m *Size) String() string {
	switch {
	case *m == 0:
		return ""
	case *m < 0:
		return NoLimit
	}
	return procrun.FormatSize(int64(*m))
}

// Set reads a size such as 350M or 2GiB, or none.
func (m *Size) Set(s string) error {
	if strings.EqualFold(strings.TrimSpace(s), NoLimit) {
		*m = -1
		return nil
	}
	n, err := procrun.ParseSize(s)
	if err != nil {
		return fmt.Errorf("%w, or %s (no limit)", err, NoLimit)
	}
	*m = Size(n)
	return nil
}

// Bytes is the limit in bytes given def as the default: 0 for none.
func (m Size) Bytes(def int64) int64 {
	switch {
	case m == 0:
		return def
	case m < 0:
		return 0
	}
	return int64(m)
}

// Memory is --bot-memory (a Size).
type Memory = Size

// Pids is --bot-pids: a positive number of tasks, or NoLimit. The zero
// value is the flag not given.
type Pids int

// Type names the accepted values in help.
func (p *Pids) Type() string { return "N|none" }

func (p *Pids) String() string {
	switch {
	case *p == 0:
		return ""
	case *p < 0:
		return NoLimit
	}
	return strconv.Itoa(int(*p))
}

// Set reads a positive number of tasks, or none.
func (p *Pids) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, NoLimit) {
		*p = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return fmt.Errorf("--bot-pids %q: want a positive number of tasks (processes and threads) a bot may have at once, e.g. %d, or %s (no limit)", s, procrun.DefaultPids, NoLimit)
	}
	*p = Pids(n)
	return nil
}

// Limit is the limit given def as the default: 0 for none.
func (p Pids) Limit(def int) int {
	switch {
	case p == 0:
		return def
	case p < 0:
		return 0
	}
	return int(p)
}

// CPUs is --bot-cpus: a CPU quota per bot, in CPUs (0.5, 2), or NoLimit
// (the default: no quota).
type CPUs float64

// Type names the accepted values in help.
func (c *CPUs) Type() string { return "CPUS|none" }

func (c *CPUs) String() string {
	if *c <= 0 {
		return ""
	}
	return strconv.FormatFloat(float64(*c), 'g', -1, 64)
}

// Set reads a positive number of CPUs (at least 0.01), or none.
func (c *CPUs) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, NoLimit) {
		*c = 0
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0.01 && f <= 1024) {
		return fmt.Errorf("--bot-cpus %q: want the CPU time a bot may use per second of wall time, in CPUs from 0.01 to 1024 (e.g. 0.5 or 2), or %s", s, NoLimit)
	}
	*c = CPUs(f)
	return nil
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

// LogContainment says at start-up how the bots are held, the sandbox and
// each limit (Limits), in force or not.
func LogContainment(log hclog.Logger, mode procrun.SandboxMode, limits []Limit) {
	sb := "off (--sandbox=off)"
	if mode != procrun.SandboxOff {
		sb = procrun.SandboxDetect().String()
	}
	log.Info("bot containment", "in force", procrun.Detect().String(), "sandbox", sb, "limits", limitsLine(limits))
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
