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

// Entry is one bot found on the path.
type Entry struct {
	Name string // NAME of kinrow-bot-NAME
	Path string // absolute path of the executable
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

// Find returns the path of the bot called name. The error names the
// directories searched and the bots that exist.
func (f Finder) Find(name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	for _, dir := range f.Dirs {
		p := filepath.Join(dir, Prefix+name)
		if isExecutable(p) {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			return p, nil
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
	return "", fmt.Errorf("unknown bot %q (%w): no %s%s in %s; bots found: %s",
		name, ErrNotFound, Prefix, name, f.describeDirs(), avail)
}

func (f Finder) describeDirs() string {
	if len(f.Dirs) == 0 {
		return "no directory (set " + EnvVar + ")"
	}
	return strings.Join(f.Dirs, ":")
}

// List returns every bot found, sorted by name; a name found in several
// directories is listed once, from the first.
func (f Finder) List() []Entry {
	seen := map[string]bool{}
	var out []Entry
	for _, dir := range f.Dirs {
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fi := range files {
			name, ok := strings.CutPrefix(fi.Name(), Prefix)
			if !ok || seen[name] || ValidName(name) != nil {
				continue
			}
			p := filepath.Join(dir, fi.Name())
			if !isExecutable(p) {
				continue
			}
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			seen[name] = true
			out = append(out, Entry{Name: name, Path: p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}
