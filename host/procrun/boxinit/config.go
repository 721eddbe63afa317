package boxinit

import "strings"

// Arg0 is the argv[0] that makes a process the init (Main).
const Arg0 = "kinrow-sandbox-init"

// The init's file descriptors.
const (
	FDSync   = 3 // host → init: one byte once the init is in its cgroups
	FDStatus = 4 // init → host: why the box failed; closed by a good execve ("ok" for a probe)
	FDExe    = 5 // the verified executable, when Config.Exe is set
)

// Config is what the host tells the init (JSON in argv[1]).
type Config struct {
	Path    string   `json:"path"`
	Args    []string `json:"args"`
	Read    []string `json:"read,omitempty"`
	Write   []string `json:"write,omitempty"`
	Private []string `json:"private,omitempty"` // a tmpfs of the bot's own at each (PrivateSize, PrivateInodes)
	Links   []Link   `json:"links,omitempty"`   // symbolic links to a Read or Write path
	Net     bool     `json:"net,omitempty"`     // keep the host's network
	WorkDir string   `json:"workdir,omitempty"` // "" is /tmp
	Exe     bool     `json:"exe,omitempty"`     // run the file on FDExe
	Filter  []byte   `json:"filter,omitempty"`  // the seccomp program loaded just before the execve (EncodeFilter; package seccomp's); none when empty
	UserNS  bool     `json:"userns"`            // in a user namespace
	UID     int      `json:"uid"`               // the box uid outside
	Inside  int      `json:"inside"`            // the bot's uid and gid as the init sets them
	Setgrp  bool     `json:"setgroups"`         // setgroups is allowed
	TmpSize int64    `json:"tmpsize"`           // bytes of the private /tmp
	Probe   bool     `json:"probe,omitempty"`   // set up, answer "ok", exit
}

// A Private directory is a tmpfs of PrivateSize bytes holding at most
// PrivateInodes files (its root counts), the bot's alone (mode 0700): room
// for a few unix sockets, none for data, and gone with the box's mount
// namespace.
const (
	PrivateSize   = 1 << 20
	PrivateInodes = 16
)

// Link is a symbolic link made in the box: a Read or Write path given
// through a link is bound where the link leads, and the link made too.
type Link struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// SystemDirs are bound read-only into every box.
func SystemDirs() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}
}

// UnderSystem reports whether p is inside a directory every box sees.
func UnderSystem(p string) bool {
	for _, d := range SystemDirs() {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
