package containflags

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kinrow/kinrow/host/procrun"
)

// Settings are the limits the host asks of every bot (from its flags, or
// the defaults: DefaultSettings).
type Settings struct {
	// Memory is the memory cap in bytes (0: none); MemoryGiven says it
	// came from --bot-memory, not the default.
	Memory      int64
	MemoryGiven bool
	// Limits are the tasks limit, file size limit and CPU quota.
	Limits procrun.Limits
	// Suspend says every plugin bot is suspended while it is not its turn
	// (--bot-suspend; engines by their manifests).
	Suspend bool
	// Mode is --sandbox.
	Mode procrun.SandboxMode
}

// DefaultSettings are the settings of a host given no containment flag.
func DefaultSettings() Settings {
	return Settings{Memory: procrun.DefaultMemoryCap(), Limits: procrun.DefaultLimits(), Suspend: true}
}

// Limit is one limit on bots as it stands on this machine.
type Limit struct {
	// Name names the limit: tasks, memory, file size, CPU fairness, CPU
	// quota, syscall filter.
	Name string
	// Setting is what is asked, with the flag that changes it.
	Setting string
	// On says a limit is asked (not "none").
	On bool
	// InForce says the machine enforces it; By says how, or why not.
	// --sandbox=require refuses to start bots when a limit is asked (a
	// default one, or one a flag set) and not in force.
	InForce bool
	By      string
}

// String is the limit on one line: "tasks: 256 (--bot-pids): in force by
// cgroup v2 pids.max".
func (l Limit) String() string {
	state := "in force by " + l.By
	switch {
	case !l.On && l.By != "":
		state = "off; " + l.By
	case !l.On:
		state = "off"
	case !l.InForce:
		state = "NOT in force: " + l.By
	}
	return fmt.Sprintf("%s: %s: %s", l.Name, l.Setting, state)
}

// Limits lists every limit on bots under s on this machine: c is what
// procrun.Detect says of the containment, sb what procrun.SandboxDetect
// says of the sandbox.
func Limits(s Settings, c procrun.Containment, sb procrun.SandboxStatus) []Limit {
	// RLIMIT_NPROC counts a uid's processes: a wall only where each bot
	// has a uid of its own (the full sandbox of a root host).
	ownUID := s.Mode != procrun.SandboxOff && sb.Full
	tasks := Limit{Name: "tasks", Setting: fmt.Sprintf("%d (--bot-pids)", s.Limits.Pids), On: s.Limits.Pids > 0}
	if !tasks.On {
		tasks.Setting = "none (--bot-pids none)"
	}
	var by []string
	if c.Tasks != "" {
		by = append(by, c.Tasks)
	}
	if ownUID {
		by = append(by, "RLIMIT_NPROC of the box uid")
	}
	tasks.InForce, tasks.By = len(by) > 0, strings.Join(by, " + ")
	if !tasks.InForce {
		tasks.By = "no pids cgroup the host can make (v2 pids controller or v1 pids hierarchy) and no uid of its own per bot for RLIMIT_NPROC"
		if c.TasksWhy != "" {
			tasks.By += " (" + c.TasksWhy + ")"
		}
	}

	mem := Limit{Name: "memory", Setting: procrun.FormatSize(s.Memory) + " (--bot-memory)", On: s.Memory > 0}
	switch {
	case !mem.On && !s.MemoryGiven && c.Memory != "" && !strings.HasPrefix(c.Memory, "cgroup"):
		// The default needs a cgroup: RLIMIT_AS caps address space, which
		// a JVM or a big table reserves ahead of use.
		mem.Setting = procrun.FormatSize(procrun.DefaultMemory) + " by default (--bot-memory)"
		mem.On = true
		mem.By = "only " + c.Memory + " here, which caps address space, not memory used: the default is not applied (--bot-memory SIZE applies it)"
	case !mem.On && !s.MemoryGiven && c.Memory == "":
		mem.Setting = procrun.FormatSize(procrun.DefaultMemory) + " by default (--bot-memory)"
		mem.On = true
		mem.By = "no memory cap on this platform"
	case !mem.On:
		mem.Setting = "none (--bot-memory none)"
	case c.Memory == "":
		mem.By = "no memory cap on this platform"
	default:
		mem.InForce, mem.By = true, c.Memory
	}

	fsize := Limit{Name: "file size", Setting: procrun.FormatSize(s.Limits.FileSize) + " (--bot-file-size)", On: s.Limits.FileSize > 0}
	if !fsize.On {
		fsize.Setting = "none (--bot-file-size none)"
	}
	fsize.InForce, fsize.By = c.FileSize != "", c.FileSize
	if !fsize.InForce {
		fsize.By = "no RLIMIT_FSIZE the host can set on its bots on this platform"
	}

	fair := Limit{Name: "CPU fairness", Setting: "the side not to move suspended with all it started (--bot-suspend)", On: s.Suspend}
	if !fair.On {
		fair.Setting = "plugin bots not suspended (--bot-suspend=false, or named bots only)"
	}
	switch {
	case c.Freeze && strings.HasPrefix(c.Kind, "cgroup"):
		fair.InForce, fair.By = true, "cgroup.freeze"
	case c.Freeze:
		fair.InForce, fair.By = true, "SIGSTOP of its processes"
	default:
		fair.InForce, fair.By = false, "the bot is suspended, not everything it started (containment: "+c.Kind+")"
	}

	quota := Limit{Name: "CPU quota", On: s.Limits.CPUs > 0}
	if quota.On {
		quota.Setting = fmt.Sprintf("%g CPUs (--bot-cpus)", s.Limits.CPUs)
		quota.InForce, quota.By = c.CPUQuota != "", c.CPUQuota
		if !quota.InForce {
			quota.By = "no cpu cgroup the host can make (v2 cpu controller or v1 cpu hierarchy)"
			if c.CPUQuotaWhy != "" {
				quota.By += " (" + c.CPUQuotaWhy + ")"
			}
		}
	} else {
		quota.Setting = "none (--bot-cpus CPUS)"
		if c.CPUQuota != "" {
			quota.By = "can be set by " + c.CPUQuota
		}
	}
	return []Limit{tasks, mem, fsize, fair, quota, syscallFilter(s, sb)}
}

// syscallFilter is the syscall filter's row: the box's seccomp filter
// (host/procrun/boxinit/seccomp), in force where the sandbox's probe
// loaded it.
func syscallFilter(s Settings, sb procrun.SandboxStatus) Limit {
	l := Limit{Name: "syscall filter", Setting: "Docker's deny list and more (namespaces, keyrings, io_uring, mounts, ptrace; locks without effect)", On: s.Mode != procrun.SandboxOff}
	if !l.On {
		l.Setting, l.By = "none (--sandbox=off)", "a box's seccomp filter"
		return l
	}
	if slices.Contains(sb.Parts, "seccomp filter") {
		l.InForce, l.By = true, "seccomp-bpf, loaded in each box before the bot's execve"
		return l
	}
	l.By = "no seccomp filter in the boxes here"
	for _, m := range sb.Missing {
		if strings.Contains(m, "seccomp") {
			l.By = m
		}
	}
	if len(sb.Parts) == 0 {
		l.By = "no sandbox on this machine"
	}
	return l
}

// CheckLimits refuses to go on under --sandbox=require when a limit asked
// (by default or by a flag) is not in force here, naming each.
func CheckLimits(mode procrun.SandboxMode, limits []Limit) error {
	if mode != procrun.SandboxRequire {
		return nil
	}
	var missing []string
	for _, l := range limits {
		if l.On && !l.InForce {
			missing = append(missing, l.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("--sandbox=require: no bot can start here: a limit is not in force: %s", strings.Join(missing, "; "))
	}
	return nil
}

// limitsLine is the limits on one line, for the start-up log.
func limitsLine(limits []Limit) string {
	parts := make([]string, len(limits))
	for i, l := range limits {
		parts[i] = l.String()
	}
	return strings.Join(parts, "; ")
}
