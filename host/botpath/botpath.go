package botpath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Prefix is the file-name prefix of every bot executable.
const Prefix = "kinrow-bot-"

// EnvVar is the environment variable listing extra bot directories.
const EnvVar = "KINROW_BOT_PATH"

// ErrNotFound is returned (wrapped) when no directory holds the bot.
var ErrNotFound = errors.New("bot not found")

// ManifestSuffix ends the file name of an engine manifest, NAME.engine.toml
// (see host/manifest).
const ManifestSuffix = ".engine.toml"

// Kind is what a bot found on the path is.
type Kind int

// The kinds of bots.
const (
	// Plugin is an executable kinrow-bot-NAME speaking the plugin protocol.
	Plugin Kind = iota
	// Manifest is an engine manifest NAME.engine.toml describing an
	// external engine.
	Manifest
)

// String returns "plugin" or "engine manifest".
func (k Kind) String() string {
	if k == Manifest {
		return "engine manifest"
	}
	return "plugin"
}

// Entry is one bot found on the path.
type Entry struct {
	Name string // NAME of kinrow-bot-NAME or NAME.engine.toml
	Path string // absolute path of the executable or the manifest
	Kind Kind
}

// Finder searches an ordered list of directories for bots.
type Finder struct {
	Dirs []string
}

// Default returns the finder for the host: the directories of the bot path
// variable (envValue, colon-separated; empty elements ignored), then the
// directory holding the executable exe (skipped when exe is "").
func Default(envValue, exe string) Finder {
	var dirs []string
	for _, d := range strings.Split(envValue, ":") {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dirs = append(dirs, filepath.Dir(exe))
	}
	return Finder{Dirs: dirs}
}

// ValidName reports whether name can name a bot: one or more letters, digits,
// '-', '_' or '.', and neither "." nor "..". The error says what is accepted.
func ValidName(name string) error {
	if name == "" {
		return errors.New("empty bot name: a bot name is a word such as random or alphabeta")
	}
	if strings.Contains(name, "..") || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("invalid bot name %q: a bot name may not contain a path separator or '..'", name)
	}
	for _, c := range name {
		ok := c == '-' || c == '_' || c == '.' || c == '#' ||
			('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
		if !ok {
			return fmt.Errorf("invalid bot name %q: use letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}

// Find returns the path of the bot called name (see Lookup).
func (f Finder) Find(name string) (string, error) {
	e, err := f.Lookup(name)
	return e.Path, err
}

// Lookup returns the bot called name: in the first directory that has
// either, the executable kinrow-bot-NAME, else the manifest
// NAME.engine.toml. The error names the directories searched and the bots
// that exist.
func (f Finder) Lookup(name string) (Entry, error) {
	if err := ValidName(name); err != nil {
		return Entry{}, err
	}
	for _, dir := range f.Dirs {
		if p := filepath.Join(dir, Prefix+name+exeSuffix); isExecutable(p) {
			return Entry{Name: name, Path: absPath(p), Kind: Plugin}, nil
		}
		if p := filepath.Join(dir, name+ManifestSuffix); isRegular(p) {
			return Entry{Name: name, Path: absPath(p), Kind: Manifest}, nil
		}
	}
	var names []string
	for _, e := range f.List() {
		names = append(names, e.Name)
	}
	avail := "none"
	if len(names) > 0 {
		avail = strings.Join(names, ", ")
	}
	return Entry{}, fmt.Errorf("unknown bot %q (%w): no %s%s nor %s%s in %s; bots found: %s",
		name, ErrNotFound, Prefix, name, name, ManifestSuffix, f.describeDirs(), avail)
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

func (f Finder) describeDirs() string {
	if len(f.Dirs) == 0 {
		return "no directory (set " + EnvVar + ")"
	}
	return strings.Join(f.Dirs, ":")
}

// List returns every bot found, plugins and manifests, sorted by name; a
// name found in several directories is listed once, from the first, and in
// one directory a plugin wins over a manifest of the same name (as in
// Lookup).
func (f Finder) List() []Entry {
	seen := map[string]bool{}
	var out []Entry
	for _, dir := range f.Dirs {
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		var here []Entry
		for _, fi := range files {
			p := filepath.Join(dir, fi.Name())
			if name, ok := pluginName(fi.Name()); ok && isExecutable(p) {
				here = append(here, Entry{Name: name, Path: absPath(p), Kind: Plugin})
			} else if name, ok := strings.CutSuffix(fi.Name(), ManifestSuffix); ok && isRegular(p) {
				here = append(here, Entry{Name: name, Path: absPath(p), Kind: Manifest})
			}
		}
		sort.SliceStable(here, func(i, j int) bool { return here[i].Kind < here[j].Kind })
		for _, e := range here {
			if seen[e.Name] || ValidName(e.Name) != nil {
				continue
			}
			seen[e.Name] = true
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && executableMode(st.Mode())
}

// pluginName is the bot name of a plugin's file name, kinrow-bot-NAME
// (kinrow-bot-NAME.exe on Windows).
func pluginName(file string) (string, bool) {
	name, ok := strings.CutPrefix(file, Prefix)
	if !ok {
		return "", false
	}
	return strings.CutSuffix(name, exeSuffix)
}
