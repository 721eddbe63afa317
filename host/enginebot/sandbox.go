package enginebot

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kinrow/kinrow/host/manifest"
	"github.com/kinrow/kinrow/host/procrun"
)

// Sandbox is what an engine started from manifest m with argv may reach
// under the host's sandbox: read-only, the manifest's directory, its
// executable's and the manifest's read list (each resolved and checked by
// the sandbox layer, procrun.Sandbox.View), none of cfg.Deny; the host's
// network when the manifest or cfg allows it; the manifest's directory as
// its working directory unless the manifest asks for its private /tmp.
// The paths the command's arguments name are not bound: those inside the
// manifest's directory are seen through it, the others only when the
// manifest lists them in read (OutsidePaths lists them).
func Sandbox(m *manifest.Manifest, argv []string, cfg Config) procrun.Sandbox {
	sb := procrun.Sandbox{Mode: cfg.Sandbox, Network: cfg.Network || m.Network, Exe: cfg.Exe, Deny: cfg.Deny}
	seen := map[string]bool{}
	add := func(p string) {
		p = filepath.Clean(p)
		if p == "/" || seen[p] {
			return
		}
		seen[p] = true
		sb.Read = append(sb.Read, p)
	}
	add(m.Dir)
	if len(argv) > 0 && filepath.IsAbs(argv[0]) {
		add(filepath.Dir(argv[0]))
	}
	for _, p := range m.Read {
		add(p)
	}
	if !m.PrivateWorkDir {
		sb.WorkDir = m.Dir
	}
	return sb
}

// OutsidePaths lists the existing paths argv's arguments (argv[1:]) name
// outside the manifest's directory (resolved, links followed) that its
// read list does not hold: the engine does not see them (the person who
// installs it lists them in read if it must).
func OutsidePaths(m *manifest.Manifest, argv []string) []string {
	dir := procrun.Resolve(m.Dir)
	var out []string
	for _, a := range argv[min(1, len(argv)):] {
		for _, p := range namedPaths(a, m.Dir) {
			r := procrun.Resolve(p)
			if procrun.Within(r, dir) || listed(r, m.Read) || procrun.UnderSystem(r) {
				continue
			}
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// listed reports whether r is inside one of the read paths.
func listed(r string, read []string) bool {
	for _, p := range read {
		if procrun.Within(r, procrun.Resolve(p)) {
			return true
		}
	}
	return false
}

// namedPaths lists the existing paths argument a names: a itself, each
// part between ':' (a class path), and what follows '=' (--config=x);
// absolute, or relative to dir when they hold a '/' or exist there.
func namedPaths(a, dir string) []string {
	var cands []string
	if _, v, ok := strings.Cut(a, "="); ok {
		cands = append(cands, v)
	}
	cands = append(cands, a)
	cands = append(cands, strings.Split(a, ":")...)
	var out []string
	for _, c := range cands {
		if c == "" || strings.ContainsRune(c, 0) {
			continue
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		if _, err := os.Stat(c); err == nil {
			out = append(out, c)
		}
	}
	return out
}
