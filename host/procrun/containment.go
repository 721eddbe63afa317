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
	// Tasks says how a tasks limit (Limits.Pids) is enforced, "" if no
	// cgroup can (RLIMIT_NPROC, a second wall, applies where the sandbox
	// gives the bot a uid of its own: SandboxStatus.OwnUID).
	Tasks string
	// FileSize says how Limits.FileSize is enforced, "" if it cannot be.
	FileSize string
	// CPUQuota says how Limits.CPUs is enforced, "" if it cannot be.
	CPUQuota string
	// TasksWhy and CPUQuotaWhy say why no cgroup holds that limit, when
	// none does.
	TasksWhy, CPUQuotaWhy string
}

// String is the start-up log's one-line account.
func (c Containment) String() string {
	var b strings.Builder
	b.WriteString(c.Kind)
	if c.Where != "" {
		fmt.Fprintf(&b, " under %s", c.Where)
	}
	fmt.Fprintf(&b, "; suspend all: %s; kill all: %s; cpu time: %s; memory cap: ", yes(c.Freeze), yes(c.KillAll), yes(c.CPU))
	b.WriteString(orNone(c.Memory))
	fmt.Fprintf(&b, "; tasks: %s; file size: %s; cpu quota: %s", orNone(c.Tasks), orNone(c.FileSize), orNone(c.CPUQuota))
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

// orNone is s, or "none" when empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
