package procrun

import (
	"fmt"
	"strings"
)

// Containment says how bots are held on this machine.
type Containment struct {
	Kind    string // "cgroup v2", "process group + child subreaper", "job object", "process group"
	Where   string // the parent cgroup, if any
	Why     string // why a better kind is not in force
	Freeze  bool   // Suspend stops every descendant, escaped or not
	KillAll bool   // Kill ends every descendant, escaped or not
	CPU     bool   // CPU time is accounted
	Memory  string // how a memory cap is enforced, "" if it cannot be
}

// String is the start-up log's one-line account.
func (c Containment) String() string {
	var b strings.Builder
	b.WriteString(c.Kind)
	if c.Where != "" {
		fmt.Fprintf(&b, " under %s", c.Where)
	}
	fmt.Fprintf(&b, "; suspend all: %s; kill all: %s; cpu time: %s; memory cap: ", yes(c.Freeze), yes(c.KillAll), yes(c.CPU))
	if c.Memory == "" {
		b.WriteString("none")
	} else {
		b.WriteString(c.Memory)
	}
	if c.Why != "" {
		fmt.Fprintf(&b, " (no cgroup: %s)", c.Why)
	}
	return b.String()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
