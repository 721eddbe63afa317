package procrun

import (
	"fmt"
	"os"
	"strings"

	"github.com/kinrow/kinrow/host/procrun/boxinit"
)

// SandboxMode says how much of the sandbox a bot must get
// (--sandbox=auto|require|off).
type SandboxMode int

const (
	// SandboxAuto gives every bot the full sandbox where the kernel allows
	// it, else what it can, and says what is not in force.
	SandboxAuto SandboxMode = iota
	// SandboxRequire refuses to start a bot without the full sandbox.
	SandboxRequire
	// SandboxOff runs bots without a sandbox (containment only).
	SandboxOff
)

// String is the mode as --sandbox spells it.
func (m SandboxMode) String() string {
	switch m {
	case SandboxRequire:
		return "require"
	case SandboxOff:
		return "off"
	}
	return "auto"
}

// ParseSandboxMode reads --sandbox's value.
func ParseSandboxMode(s string) (SandboxMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto", "":
		return SandboxAuto, nil
	case "require", "required":
		return SandboxRequire, nil
	case "off", "none", "false":
		return SandboxOff, nil
	}
	return SandboxAuto, fmt.Errorf("--sandbox %q: want auto (the full sandbox where the kernel allows it), require (refuse a bot without it) or off", s)
}

// Sandbox is what a bot may reach of the host beyond its standard streams.
// Under the sandbox (Linux) a bot runs as a user that is not the host's, in
// its own user, pid, mount, network, IPC, UTS and cgroup namespaces, on a
// root of its own: the system directories read-only, the paths in Read
// read-only and those in Write writable at their host paths, a small tmpfs
// of its own at each Private path, a private tmpfs at /tmp (its working
// directory, $TMPDIR and $HOME), its own /proc and a minimal /dev; nothing
// else of the host.
type Sandbox struct {
	// Mode is auto, require or off.
	Mode SandboxMode
	// Read lists host paths (directories or files) the bot sees read-only
	// at the same place: its own directory, what its manifest names.
	Read []string
	// Write lists host paths the bot sees writable at the same place.
	Write []string
	// Private lists paths (a plugin's socket directory) at which the bot
	// gets, instead of the host's directory, a small tmpfs of its own
	// (boxinit.PrivateSize bytes, boxinit.PrivateInodes files), writable by
	// it alone: nothing it writes there reaches the host's disks, and it
	// goes with the box, whatever becomes of the host. The host reaches
	// what the bot makes there through Process.OpenPath. Without a box
	// (the sandbox off, or not to be had) the bot uses the host's
	// directory at that path, unbounded.
	Private []string
	// Network keeps the host's network (--bot-network, a manifest's
	// network = true); otherwise the bot has a loopback of its own only.
	Network bool
	// WorkDir, when set, is the bot's working directory (one of Read or
	// Write); otherwise it is the private /tmp.
	WorkDir string
	// Exe, when set, is the open executable the bot runs (its checksum was
	// verified on this very file): it is executed, not the path, so a file
	// swapped after the check is never run.
	Exe *os.File
	// Deny lists host paths no box may see, nor any directory above them
	// (the records the host is writing): a Read or Write path that
	// resolves to one is refused (View, CheckBind).
	Deny []string
	// Log, when set, is given the box's "box sees: ..." line (View's) as
	// the box is made: a logger's Debug.
	Log func(msg string, args ...any)

	// rootNS (tests) makes the box as a root host without user
	// namespaces does: the other namespaces, and the init switches to the
	// box uid itself.
	rootNS bool
}

// BoxEnv names the environment variable that, when set, is the path of
// the kinrow-box to run as each box's init (for a host that has none
// beside it: a test binary); Linux only.
const BoxEnv = "KINROW_BOX"

// UnderSystem reports whether path is inside the system directories every
// sandboxed bot sees read-only (/usr, /bin, /sbin, /lib*, /etc).
func UnderSystem(path string) bool { return boxinit.UnderSystem(path) }

// hostSocketDir is what is not in force without a box: the bot's writes
// to its socket directory reach the host's disk.
const hostSocketDir = "a plugin's socket directory is the host's, on its disk, writable by the bot without a quota"

// SandboxStatus says what the sandbox gives the bots started now.
type SandboxStatus struct {
	// Full is true when every part is in force.
	Full bool
	// Parts lists what is in force ("user namespace, uid 100000+",
	// "pid namespace", ...).
	Parts []string
	// Missing lists what is not, and why.
	Missing []string
}

// String is the start-up log's account of the sandbox.
func (s SandboxStatus) String() string {
	var b strings.Builder
	switch {
	case s.Full:
		b.WriteString("full")
	case len(s.Parts) == 0:
		b.WriteString("none")
	default:
		b.WriteString("partial")
	}
	if len(s.Parts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(s.Parts, ", "))
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(&b, "; not in force: %s", strings.Join(s.Missing, "; "))
	}
	return b.String()
}
