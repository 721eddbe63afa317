package manifest

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/procrun"
)

// Protocol is the protocol an engine speaks on stdin/stdout.
type Protocol string

// The protocols an engine may speak.
const (
	// Gomocup is the Gomocup (Piskvork) brain protocol.
	Gomocup Protocol = "gomocup"
	// Kinrow is the host's own text protocol (GTP v2 framing).
	Kinrow Protocol = "kinrow"
)

// Keys lists the top-level keys a manifest may have.
var keys = []string{"command", "protocol", "rules", "options", "suspend", "strength", "tolerance", "max_memory", "env", "network", "read", "workdir"}

// MaxTolerance bounds a Gomocup engine's tolerance.
const MaxTolerance = time.Minute

// ReservedGomocupInfo are INFO keys the host sets itself for a Gomocup
// engine; a manifest may not set them as options.
var reservedGomocupInfo = []string{"timeout_turn", "timeout_match", "time_left", "rule"}

// MaxBytes bounds the size of a manifest file.
const MaxBytes = 64 << 10

// Manifest is one engine described by a NAME.engine.toml file.
type Manifest struct {
	// Name is the bot's name: NAME of NAME.engine.toml.
	Name string
	// Path is the manifest's path; Dir its directory, where the engine runs.
	Path, Dir string
	// Command is the argv; Command[0] is absolute when the manifest gave a
	// path, and a bare name to look up on $PATH otherwise (see Executable).
	Command []string
	// Protocol is what the engine speaks.
	Protocol Protocol
	// Rules are the games the engine plays, in the order given, without
	// duplicates.
	Rules []engine.Rules
	// Options are passed to the engine (see the package comment).
	Options map[string]string
	// Suspend: stop the engine (SIGSTOP) while its opponent thinks.
	Suspend bool
	// Strength ranks the engine among the bots for the default choice.
	Strength int
	// Tolerance is how long past a move's time a Gomocup engine's answer is
	// still accepted, as Gomocup's managers add a tolerance to timeout_turn;
	// HasTolerance reports whether the manifest set it (key tolerance).
	Tolerance    time.Duration
	HasTolerance bool
	// MaxMemory caps the engine's memory with its descendants', in bytes
	// (key max_memory, a size such as "350M"); 0: the host's cap, if any.
	MaxMemory int64
	// Env names host environment variables passed through to the engine
	// beyond the minimal environment (key env, e.g. env = ["OMP_NUM_THREADS"]).
	Env []string
	// Network lets the engine use the host's network under the sandbox
	// (key network; default false: a loopback of its own only).
	Network bool
	// Read lists paths the engine sees read-only under the sandbox beyond
	// its manifest's directory, its executable's and the paths its command
	// names (key read; relative paths are resolved against Dir).
	Read []string
	// PrivateWorkDir runs the engine in its private /tmp instead of the
	// manifest's directory (key workdir = "private"; default "manifest").
	PrivateWorkDir bool
}

// Parse reads a manifest's text. name is the bot's name and dir the
// manifest's directory (relative paths in command are resolved against it);
// Parse does not touch the file system. The error names what is wrong and
// what is accepted.
func Parse(data []byte, name, dir string) (*Manifest, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("manifest is %d bytes: at most %d are accepted", len(data), MaxBytes)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("not valid TOML: %s", oneLine(err.Error()))
	}
	var unknown []string
	for k := range raw {
		if !slices.Contains(keys, k) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown key %s: accepted are %s", strings.Join(unknown, ", "), strings.Join(keys, ", "))
	}
	m := &Manifest{Name: name, Dir: dir}
	var err error
	if m.Command, err = parseCommand(raw["command"], dir); err != nil {
		return nil, err
	}
	if m.Protocol, err = parseProtocol(raw["protocol"]); err != nil {
		return nil, err
	}
	if m.Rules, err = parseRules(raw["rules"], m.Protocol); err != nil {
		return nil, err
	}
	if m.Options, err = parseOptions(raw["options"], m.Protocol); err != nil {
		return nil, err
	}
	m.Suspend = m.Protocol == Gomocup
	if v, ok := raw["suspend"]; ok {
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("suspend: want true or false, got %s", describe(v))
		}
		m.Suspend = b
	}
	if v, ok := raw["strength"]; ok {
		n, ok := v.(int64)
		if !ok || n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("strength: want a whole number (higher is stronger), got %s", describe(v))
		}
		m.Strength = int(n)
	}
	if v, ok := raw["tolerance"]; ok {
		d, err := parseTolerance(v, m.Protocol)
		if err != nil {
			return nil, err
		}
		m.Tolerance, m.HasTolerance = d, true
	}
	if v, ok := raw["max_memory"]; ok {
		str, isStr := v.(string)
		if !isStr {
			return nil, fmt.Errorf(`max_memory: want a size string such as "350M" or "2GiB", got %s`, describe(v))
		}
		n, err := procrun.ParseSize(str)
		if err != nil {
			return nil, fmt.Errorf("max_memory: %w", err)
		}
		m.MaxMemory = n
	}
	if v, ok := raw["env"]; ok {
		const want = `want an array of environment variable names, e.g. env = ["OMP_NUM_THREADS"]`
		list, isList := v.([]any)
		if !isList {
			return nil, fmt.Errorf("env: %s; got %s", want, describe(v))
		}
		for i, a := range list {
			name, isStr := a.(string)
			if !isStr {
				return nil, fmt.Errorf("env[%d]: %s; got %s", i, want, describe(a))
			}
			if err := procrun.CheckEnvName(name); err != nil {
				return nil, fmt.Errorf("env[%d]: %w", i, err)
			}
			m.Env = append(m.Env, name)
		}
	}
	if v, ok := raw["network"]; ok {
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("network: want true (the engine may use the host's network under the sandbox) or false, got %s", describe(v))
		}
		m.Network = b
	}
	if v, ok := raw["read"]; ok {
		const want = `want an array of paths the engine reads (absolute, or relative to the manifest's directory), e.g. read = ["weights", "/opt/books"]`
		list, isList := v.([]any)
		if !isList {
			return nil, fmt.Errorf("read: %s; got %s", want, describe(v))
		}
		for i, a := range list {
			p, isStr := a.(string)
			if !isStr || strings.TrimSpace(p) == "" || strings.ContainsRune(p, 0) {
				return nil, fmt.Errorf("read[%d]: %s; got %s", i, want, describe(a))
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if filepath.Clean(p) == "/" {
				return nil, fmt.Errorf("read[%d]: the whole file system (/) is not accepted: %s", i, want)
			}
			m.Read = append(m.Read, filepath.Clean(p))
		}
	}
	if v, ok := raw["workdir"]; ok {
		s, isStr := v.(string)
		switch {
		case isStr && s == "private":
			m.PrivateWorkDir = true
		case isStr && s == "manifest":
		default:
			return nil, fmt.Errorf(`workdir: want "manifest" (the engine runs in its manifest's directory, read-only under the sandbox) or "private" (in its private writable /tmp), got %s`, describe(v))
		}
	}
	return m, nil
}

// parseTolerance reads the tolerance key: a duration string such as "1s"
// or "1500ms", from 0 to MaxTolerance, for a gomocup engine only.
func parseTolerance(v any, p Protocol) (time.Duration, error) {
	want := fmt.Sprintf(`want a duration from "0s" to "%s", e.g. tolerance = "1s" or "500ms"`, MaxTolerance)
	if p != Gomocup {
		return 0, fmt.Errorf("tolerance: only for gomocup engines (the time Gomocup managers accept past timeout_turn); a %s engine gets the host's grace", p)
	}
	s, ok := v.(string)
	if !ok {
		return 0, fmt.Errorf("tolerance: %s; got %s", want, describe(v))
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("tolerance: %q is not a duration: %s", s, want)
	}
	if d < 0 || d > MaxTolerance {
		return 0, fmt.Errorf("tolerance: %q is out of range: %s", s, want)
	}
	return d, nil
}

func parseCommand(v any, dir string) ([]string, error) {
	const want = `want an array of strings, the program and its arguments, e.g. command = ["./pbrain-x"]`
	if v == nil {
		return nil, errors.New("command: missing: " + want)
	}
	var argv []string
	switch t := v.(type) {
	case string:
		argv = []string{t}
	case []any:
		for i, a := range t {
			s, ok := a.(string)
			if !ok {
				return nil, fmt.Errorf("command[%d]: %s, got %s", i, want, describe(a))
			}
			argv = append(argv, s)
		}
	default:
		return nil, fmt.Errorf("command: %s, got %s", want, describe(v))
	}
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		return nil, errors.New("command: the program is empty: " + want)
	}
	for i, a := range argv {
		if strings.ContainsRune(a, 0) {
			return nil, fmt.Errorf("command[%d]: contains a NUL byte", i)
		}
	}
	switch p := argv[0]; {
	case filepath.IsAbs(p):
	case strings.ContainsRune(p, '/'):
		argv[0] = filepath.Join(dir, p)
	}
	return argv, nil
}

func parseProtocol(v any) (Protocol, error) {
	const want = `accepted are "gomocup" (a Gomocup brain) and "kinrow" (the kinrow text protocol)`
	if v == nil {
		return "", errors.New("protocol: missing: " + want)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("protocol: want a string: %s; got %s", want, describe(v))
	}
	switch p := Protocol(strings.ToLower(strings.TrimSpace(s))); p {
	case Gomocup, Kinrow:
		return p, nil
	}
	return "", fmt.Errorf("unknown protocol %q: %s", s, want)
}

func parseRules(v any, p Protocol) ([]engine.Rules, error) {
	want := `want an array of rules strings (` + engine.RulesSyntax + `), e.g. rules = ["gomoku"]`
	if v == nil {
		return nil, errors.New("rules: missing: " + want)
	}
	list, ok := v.([]any)
	if !ok {
		if s, isStr := v.(string); isStr {
			list = []any{s}
		} else {
			return nil, fmt.Errorf("rules: %s; got %s", want, describe(v))
		}
	}
	if len(list) == 0 {
		return nil, errors.New("rules: empty: " + want)
	}
	var out []engine.Rules
	for i, a := range list {
		s, ok := a.(string)
		if !ok {
			return nil, fmt.Errorf("rules[%d]: %s; got %s", i, want, describe(a))
		}
		r, err := engine.ParseRules(s)
		if err != nil {
			return nil, fmt.Errorf("rules[%d]: %w", i, err)
		}
		if p == Gomocup && (r.Gravity() || r.K != 5 || r.Rows < 5 || r.Cols < 5) {
			return nil, fmt.Errorf("rules[%d]: %s (%s): a gomocup engine plays five in a row on m,n,k boards: want mnk:RxCx5 with sides from 5, e.g. gomoku or mnk:20x20x5", i, s, r)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out, nil
}

func parseOptions(v any, p Protocol) (map[string]string, error) {
	opts := map[string]string{}
	if v == nil {
		return opts, nil
	}
	table, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("options: want a table of KEY = VALUE ([options] then lines such as max_memory = 350000000); got %s", describe(v))
	}
	names := make([]string, 0, len(table))
	for k := range table {
		names = append(names, k)
	}
	sort.Strings(names) // the first bad option reported is always the same
	for _, k := range names {
		val := table[k]
		if err := checkKey(p, k); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
		var s string
		switch t := val.(type) {
		case string:
			s = t
		case int64:
			s = strconv.FormatInt(t, 10)
		case float64:
			s = strconv.FormatFloat(t, 'g', -1, 64)
		case bool:
			s = strconv.FormatBool(t)
		default:
			return nil, fmt.Errorf("options: %s: want a string, a number or a boolean; got %s", k, describe(val))
		}
		if err := CheckOption(p, k, s); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
		opts[k] = s
	}
	return opts, nil
}

// CheckOption reports whether key = value can be passed to an engine of
// protocol p (from a manifest or at load time), saying what is accepted if
// not.
func CheckOption(p Protocol, key, value string) error {
	if err := checkKey(p, key); err != nil {
		return err
	}
	for _, c := range value {
		if c < 0x20 || c == 0x7f {
			return fmt.Errorf("option %s: the value contains a control character: want one line of text", key)
		}
	}
	if p == Kinrow && strings.ContainsRune(value, '#') {
		return fmt.Errorf("option %s: the value %q contains '#', a comment in the kinrow protocol: want a value without it", key, value)
	}
	return nil
}

func checkKey(p Protocol, key string) error {
	if key == "" {
		return errors.New("empty option name: want a word of letters, digits, '_', '-' and '.'")
	}
	for _, c := range key {
		ok := c == '-' || c == '_' || c == '.' ||
			('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
		if !ok {
			return fmt.Errorf("option name %q: want a word of letters, digits, '_', '-' and '.'", key)
		}
	}
	if p == Gomocup && slices.Contains(reservedGomocupInfo, strings.ToLower(key)) {
		return fmt.Errorf("option %s: the host sets INFO %s itself (from the clock and the rules); accepted are other INFO keys such as max_memory or game_type", key, strings.ToLower(key))
	}
	return nil
}

// Load reads and checks the manifest at path for the bot name: it parses
// the file (see Parse) and checks that the program exists and is
// executable. The error starts with the file's name.
func Load(path, name string) (*Manifest, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	fail := func(err error) (*Manifest, error) {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return fail(err)
	}
	m, err := Parse(data, name, filepath.Dir(path))
	if err != nil {
		return fail(err)
	}
	m.Path = path
	if _, err := m.Executable(); err != nil {
		return fail(err)
	}
	return m, nil
}

// Executable returns the path of the program to run: Command[0], resolved
// as the package comment says. The error says why it cannot be run.
func (m *Manifest) Executable() (string, error) {
	p := m.Command[0]
	if !filepath.IsAbs(p) {
		local := filepath.Join(m.Dir, p)
		if st, err := os.Stat(local); err == nil && st.Mode().IsRegular() {
			p = local
		} else {
			found, err := exec.LookPath(p)
			if err != nil {
				return "", fmt.Errorf("command %q: not in %s and not found on $PATH", p, m.Dir)
			}
			return found, nil
		}
	}
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return "", fmt.Errorf("command %q: %w", p, err)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("command %q: not a regular file", p)
	case st.Mode()&0o111 == 0:
		return "", fmt.Errorf("command %q: not executable (chmod +x it)", p)
	}
	return p, nil
}

// Lists reports whether the manifest lists r among the engine's Rules: the
// exact rules strings, sizes included. (The Info built from a manifest
// declares looser ones, every size up to the largest listed: see
// botapi.Info.Declares.)
func (m *Manifest) Lists(r engine.Rules) bool { return slices.Contains(m.Rules, r) }

// RulesText lists the engine's rules, comma-separated.
func (m *Manifest) RulesText() string {
	s := make([]string, len(m.Rules))
	for i, r := range m.Rules {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

// describe names a decoded TOML value's type for error messages.
func describe(v any) string {
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", t)
	case int64:
		return fmt.Sprintf("the number %d", t)
	case float64:
		return fmt.Sprintf("the number %g", t)
	case bool:
		return fmt.Sprintf("the boolean %t", t)
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
