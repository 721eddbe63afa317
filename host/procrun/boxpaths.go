package procrun

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/host/procrun/boxinit"
)

// What a box sees is what its Sandbox says, resolved: View turns a
// Sandbox into the list of its mounts, once, for the box itself (newBox
// hands the init the binds View resolved) and for whoever asks what a
// bot would see (kinrow doctor --bot, the "box sees" debug line). Every
// Read and Write path is resolved (symbolic links followed) and refused
// (CheckBind) when what it resolves to would show the box more than the
// bot's own files.

// DefaultTmpSize is the size of a box's private /tmp when no memory cap
// is smaller.
const DefaultTmpSize = 256 << 20

// Mount is one thing a box sees.
type Mount struct {
	// Path is where the box sees it.
	Path string
	// Kind says what it is: "system" (a system directory, read-only),
	// "read", "write" (a host path bound at the same place), "link" (a
	// symbolic link made in the box, to Source), "tmp", "proc", "dev" or
	// "private" (the box's own; a private directory is a small tmpfs at a
	// host path, never the host's directory).
	Kind string
	// Source is the host path bound (resolved), or a link's target.
	Source string
	// Given is the path as the Sandbox gave it, when it differs from Path
	// (it led through a symbolic link).
	Given string
	// Size is a tmpfs's size in bytes.
	Size int64
}

// BoxView is what a box made from a Sandbox sees of the host.
type BoxView struct {
	// Mounts lists the system directories, the box's own /tmp, /proc and
	// /dev, then each Read and Write path, in that order.
	Mounts []Mount
	// Network is true when the box keeps the host's network.
	Network bool
	// WorkDir is the bot's working directory ("/tmp": its private one).
	WorkDir string
}

// View is what the box of a bot started from executable exe under sb,
// with memory as its memory cap (0: none), sees: the system directories,
// its own /tmp (DefaultTmpSize, or the memory cap when smaller), /proc and
// /dev, sb's Read paths (and exe, unless sb.Exe is the file run) read-only
// and its Write paths writable, each resolved. A path that is relative,
// or under the system directories, adds nothing (the box sees those
// anyway); one that resolves to what CheckBind refuses is an error naming
// it.
func (sb Sandbox) View(exe string, memory int64) (BoxView, error) {
	v := BoxView{Network: sb.Network, WorkDir: sb.WorkDir}
	if v.WorkDir == "" {
		v.WorkDir = "/tmp"
	}
	for _, d := range boxinit.SystemDirs() {
		st, err := os.Lstat(d)
		switch {
		case err != nil:
		case st.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(d)
			v.Mounts = append(v.Mounts, Mount{Path: d, Kind: "link", Source: target})
		case st.IsDir():
			v.Mounts = append(v.Mounts, Mount{Path: d, Kind: "system", Source: d})
		}
	}
	tmp := int64(DefaultTmpSize)
	if memory > 0 && memory < tmp {
		tmp = memory // its pages count against the bot's memory anyway
	}
	v.Mounts = append(v.Mounts, Mount{Path: "/tmp", Kind: "tmp", Size: tmp},
		Mount{Path: "/proc", Kind: "proc"}, Mount{Path: "/dev", Kind: "dev"})
	g := newGuard(sb.Deny)
	read := sb.Read
	if sb.Exe == nil && exe != "" {
		read = append(read[:len(read):len(read)], exe)
	}
	for _, kind := range []string{"read", "write"} {
		paths := read
		if kind == "write" {
			paths = sb.Write
		}
		for _, p := range paths {
			ms, err := g.mount(p, kind)
			if err != nil {
				return BoxView{}, fmt.Errorf("sandbox: %s path %w", kind, err)
			}
			for _, m := range ms {
				if !slices.Contains(v.Mounts, m) && !v.readOnlyHolds(m) {
					v.Mounts = append(v.Mounts, m)
				}
			}
		}
	}
	for _, p := range sb.Private {
		// The path as the bot is told it: made in the box, never resolved
		// on the host.
		if p = filepath.Clean(p); filepath.IsAbs(p) && p != "/" {
			v.Mounts = append(v.Mounts, Mount{Path: p, Kind: "private", Size: boxinit.PrivateSize})
		}
	}
	return v, nil
}

// readOnlyHolds reports whether m, a read-only bind, is inside one v
// binds already: the box sees it there.
func (v BoxView) readOnlyHolds(m Mount) bool {
	if m.Kind != "read" {
		return false
	}
	for _, o := range v.Mounts {
		if o.Kind == "read" && Within(m.Source, o.Source) {
			return true
		}
	}
	return false
}

// binds is what the init needs of v: the paths bound read-only and
// writable, its private directories, the links made, the size of /tmp.
func (v BoxView) binds() (read, write, private []string, links []boxinit.Link, tmp int64) {
	for _, m := range v.Mounts {
		switch m.Kind {
		case "read":
			read = append(read, m.Source)
		case "write":
			write = append(write, m.Source)
		case "private":
			private = append(private, m.Path)
		case "link":
			if m.Given != "" {
				links = append(links, boxinit.Link{Path: m.Path, Target: m.Source})
			}
		case "tmp":
			tmp = m.Size
		}
	}
	return read, write, private, links, tmp
}

// Lines is v, one mount a line, as kinrow doctor --bot prints it.
func (v BoxView) Lines() []string {
	var out []string
	var sys []string
	for _, m := range v.Mounts {
		switch m.Kind {
		case "system":
			sys = append(sys, m.Path)
		case "link":
			if m.Given == "" {
				sys = append(sys, m.Path+" -> "+m.Source)
			} else {
				out = append(out, fmt.Sprintf("%s -> %s  link (as given)", m.Path, m.Source))
			}
		case "tmp":
			out = append(out, fmt.Sprintf("/tmp  writable, its own (tmpfs of %s; $HOME and $TMPDIR; gone with it)", FormatSize(m.Size)))
		case "proc":
			out = append(out, "/proc  its own (its own processes only)")
		case "dev":
			out = append(out, "/dev  its own (null, zero, full, random, urandom; /dev/shm)")
		case "private":
			out = append(out, fmt.Sprintf("%s  writable, its own (tmpfs of %s; nothing of the host's disk; gone with it)", m.Path, FormatSize(m.Size)))
		case "read", "write":
			mode := map[string]string{"read": "read-only", "write": "writable"}[m.Kind]
			l := fmt.Sprintf("%s  %s", m.Source, mode)
			if m.Given != "" {
				l += fmt.Sprintf(" (given as %s)", m.Given)
			}
			out = append(out, l)
		}
	}
	out = append([]string{strings.Join(sys, ", ") + "  read-only (system directories)"}, out...)
	if v.Network {
		out = append(out, "network: the host's")
	} else {
		out = append(out, "network: none (a loopback of its own)")
	}
	return append(out, "working directory: "+v.WorkDir)
}

// String is v on one line, as the debug log's "box sees" line.
func (v BoxView) String() string { return strings.Join(v.Lines(), "; ") }

// guard holds what no box may bind: the host paths CheckBind refuses,
// resolved once per View.
type guard struct {
	inside []named // refused with everything inside them
	above  []named // refused with every directory above them
	deny   []named // the caller's (the records being written): refused, with the directories above
}

// named is a protected host path and what it is.
type named struct{ path, what string }

func newGuard(deny []string) *guard {
	g := &guard{}
	for _, p := range []named{{"/proc", "the host's /proc (every process of the host)"},
		{"/sys", "the host's /sys (the kernel's and the machine's state)"}, {"/dev", "the host's /dev (its devices)"}} {
		g.inside = append(g.inside, named{Resolve(p.path), p.what})
	}
	for _, h := range homeDirs() {
		g.above = append(g.above, named{Resolve(h), "a home directory"})
	}
	if wd, err := os.Getwd(); err == nil {
		g.above = append(g.above, named{Resolve(wd), "the host's working directory (run the host from another directory)"})
	}
	for _, p := range []string{"/tmp", "/var/tmp", "/run"} {
		g.above = append(g.above, named{Resolve(p), "a directory every program of the host shares (the box has a /tmp of its own)"})
	}
	for _, d := range deny {
		if d = filepath.Clean(d); filepath.IsAbs(d) {
			g.deny = append(g.deny, named{Resolve(d), "a file the host writes (the records of this run)"})
		}
	}
	return g
}

// Resolve is p with its symbolic links followed as far as they exist: a
// file not made yet resolves through its directory.
func Resolve(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		p = a // a relative path is the host's, from its working directory
	}
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if dir := filepath.Dir(p); dir != p {
		return filepath.Join(Resolve(dir), filepath.Base(p))
	}
	return p
}

// BindError is a path a box may not bind: as given, what it resolves
// to, and why.
type BindError struct {
	Given, Resolved, Why string
}

func (e *BindError) Error() string {
	if e.Given == e.Resolved {
		return fmt.Sprintf("%q is refused: %s", e.Given, e.Why)
	}
	return fmt.Sprintf("%q resolves to %s, refused: %s", e.Given, e.Resolved, e.Why)
}

// Within reports whether path p is dir or inside it (both clean).
func Within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// check says why r (p resolved) may not be bound, or nil.
func (g *guard) check(p, r string) error {
	refuse := func(why string) error { return &BindError{Given: p, Resolved: r, Why: why} }
	if r == "/" {
		return refuse("it is the host's whole file system")
	}
	for _, n := range g.inside {
		if Within(r, n.path) || Within(n.path, r) {
			return refuse(fmt.Sprintf("%s %s", placeOf(r, n.path), n.what))
		}
	}
	for _, n := range append(g.above[:len(g.above):len(g.above)], g.deny...) {
		if Within(n.path, r) {
			return refuse(fmt.Sprintf("%s %s", placeOf(r, n.path), n.what))
		}
	}
	for _, n := range g.deny {
		a, errA := os.Stat(r)
		b, errB := os.Stat(n.path)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return refuse(fmt.Sprintf("it is %s, %s, under another name", n.path, n.what))
		}
	}
	return nil
}

// placeOf says how r stands to the protected path n.
func placeOf(r, n string) string {
	switch {
	case r == n:
		return "it is"
	case Within(n, r):
		return "it holds " + n + ","
	}
	return "it is inside " + n + ","
}

// mount is what binding p (kind "read" or "write") makes the box see:
// nothing for a relative path or one under the system directories, else
// the resolved path bound and, when p led through a link, that link. It
// refuses what check refuses.
func (g *guard) mount(p, kind string) ([]Mount, error) {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		return nil, nil
	}
	if p == "/" {
		return nil, &BindError{Given: p, Resolved: p, Why: "it is the host's whole file system"}
	}
	if UnderSystem(p) {
		return nil, nil
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		r = Resolve(p) // missing: the init says so when it binds it
	}
	if err := g.check(p, r); err != nil {
		return nil, err
	}
	var out []Mount
	if r != p {
		out = append(out, Mount{Path: p, Kind: "link", Source: r, Given: p})
	}
	if !UnderSystem(r) {
		m := Mount{Path: r, Kind: kind, Source: r}
		if r != p {
			m.Given = p
		}
		out = append(out, m)
	}
	return out, nil
}

// CheckBind says why a box may not see host path p (a Read or Write path
// of a Sandbox): nil when it may. p resolved (symbolic links followed) is
// refused when it is the whole file system, inside or above the host's
// /proc, /sys or /dev, a home directory (the host's $HOME, /root, /home,
// those of /etc/passwd's users), the host's working directory, /tmp,
// /var/tmp or /run, a directory above any of them, or deny or above it.
// The error is a *BindError.
func CheckBind(p string, deny []string) error {
	_, err := newGuard(deny).mount(p, "read")
	return err
}

// homeDirs are the home directories a box may not see: $HOME, /root,
// /home, and those of /etc/passwd's root and users (uid 1000 up).
func homeDirs() []string {
	homes := []string{"/root", "/home"}
	if h := os.Getenv("HOME"); filepath.IsAbs(h) {
		homes = append(homes, h)
	}
	if b, err := os.ReadFile("/etc/passwd"); err == nil {
		homes = append(homes, passwdHomes(b)...)
	}
	return homes
}

// passwdHomes reads /etc/passwd's text: the home directories of root and
// of the users with a uid of 1000 or more (not nobody's), absolute ones
// only.
func passwdHomes(data []byte) []string {
	var out []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		f := strings.Split(string(line), ":")
		if len(f) < 7 || strings.HasPrefix(f[0], "#") {
			continue
		}
		uid, err := strconv.ParseUint(f[2], 10, 32)
		if err != nil || (uid != 0 && uid < 1000) || uid == 65534 {
			continue
		}
		if h := filepath.Clean(f[5]); filepath.IsAbs(h) && h != "/" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}
