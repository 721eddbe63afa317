package manifest

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
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
	// its manifest's directory and its executable's: the paths its
	// command's arguments name outside Dir are seen only when listed here
	// (key read; relative paths are resolved against Dir; Load refuses one
	// that resolves to what no box may see, procrun.CheckBind).
	Read []string
	// PrivateWorkDir runs the engine in its private /tmp instead of the
	// manifest's directory (key workdir = "private"; default "manifest").
	PrivateWorkDir bool

	// readGiven is the read key as written, for Load's errors.
	readGiven []string
}

// file is a manifest as TOML holds it: one field per top-level key, named
// by its tag. Each field keeps what TOML gave, of the type it wants or not,
// so that Parse's errors name the key, what was given and what is accepted.
type file struct {
	Command   textList               `toml:"command"`
	Protocol  scalar[string]         `toml:"protocol"`
	Rules     textList               `toml:"rules"`
	Options   scalar[map[string]any] `toml:"options"`
	Suspend   scalar[bool]           `toml:"suspend"`
	Strength  scalar[int64]          `toml:"strength"`
	Tolerance scalar[string]         `toml:"tolerance"`
	MaxMemory scalar[string]         `toml:"max_memory"`
	Env       textList               `toml:"env"`
	Network   scalar[bool]           `toml:"network"`
	Read      textList               `toml:"read"`
	Workdir   scalar[string]         `toml:"workdir"`
}

// keys lists the top-level keys a manifest may have: file's tags, in order.
var keys = func() []string {
	t := reflect.TypeFor[file]()
	k := make([]string, t.NumField())
	for i := range k {
		k[i] = t.Field(i).Tag.Get("toml")
	}
	return k
}()

// scalar is a key's value when TOML gave a T (set and ok), else what it gave
// (set, not ok, got).
type scalar[T any] struct {
	v       T
	set, ok bool
	got     any
}

// UnmarshalTOML keeps v, of type T or not; the type is checked by Parse.
func (s *scalar[T]) UnmarshalTOML(v any) error {
	s.set, s.got = true, v
	s.v, s.ok = v.(T)
	return nil
}

// textList is a key's value that is a string or an array of strings: list
// holds them and array tells which it was; bad >= 0 is the index of the
// first element that is not a string, got the value when neither.
type textList struct {
	list       []string
	set, array bool
	bad        int
	got        any
}

// UnmarshalTOML keeps v's strings; the type is checked by Parse.
func (s *textList) UnmarshalTOML(v any) error {
	s.set, s.got, s.bad = true, v, -1
	switch t := v.(type) {
	case string:
		s.list = []string{t}
	case []any:
		s.array, s.list = true, make([]string, 0, len(t))
		for i, a := range t {
			str, ok := a.(string)
			if !ok {
				s.bad, s.got = i, a
				break
			}
			s.list = append(s.list, str)
		}
	default:
		s.bad = 0
	}
	return nil
}

// wrong is the error for a value of the wrong type: key, what is accepted,
// what was given.
func (s *textList) wrong(key, want string) error {
	if s.array {
		return fmt.Errorf("%s[%d]: %s; got %s", key, s.bad, want, describe(s.got))
	}
	return fmt.Errorf("%s: %s; got %s", key, want, describe(s.got))
}

// Parse reads a manifest's text. name is the bot's name and dir the
// manifest's directory (relative paths in command are resolved against it);
// Parse does not touch the file system. The error names what is wrong and
// what is accepted.
func Parse(data []byte, name, dir string) (*Manifest, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("manifest is %d bytes: at most %d are accepted", len(data), MaxBytes)
	}
	var f file
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("not valid TOML: %s", oneLine(err.Error()))
	}
	if err := unknownKeys(md); err != nil {
		return nil, err
	}
	m := &Manifest{Name: name, Dir: dir}
	if m.Command, err = parseCommand(f.Command, dir); err != nil {
		return nil, err
	}
	if m.Protocol, err = parseProtocol(f.Protocol); err != nil {
		return nil, err
	}
	if m.Rules, err = parseRules(f.Rules, m.Protocol); err != nil {
		return nil, err
	}
	if m.Options, err = parseOptions(f.Options, m.Protocol); err != nil {
		return nil, err
	}
	m.Suspend = m.Protocol == Gomocup
	if f.Suspend.set {
		if !f.Suspend.ok {
			return nil, fmt.Errorf("suspend: want true or false, got %s", describe(f.Suspend.got))
		}
		m.Suspend = f.Suspend.v
	}
	if f.Strength.set {
		n := f.Strength.v
		if !f.Strength.ok || n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("strength: want a whole number (higher is stronger), got %s", describe(f.Strength.got))
		}
		m.Strength = int(n)
	}
	if f.Tolerance.set {
		if m.Tolerance, err = parseTolerance(f.Tolerance, m.Protocol); err != nil {
			return nil, err
		}
		m.HasTolerance = true
	}
	if f.MaxMemory.set {
		if !f.MaxMemory.ok {
			return nil, fmt.Errorf(`max_memory: want a size string such as "350M" or "2GiB", got %s`, describe(f.MaxMemory.got))
		}
		if m.MaxMemory, err = procrun.ParseSize(f.MaxMemory.v); err != nil {
			return nil, fmt.Errorf("max_memory: %w", err)
		}
	}
	if f.Env.set {
		const want = `want an array of environment variable names, e.g. env = ["OMP_NUM_THREADS"]`
		if !f.Env.array || f.Env.bad >= 0 {
			return nil, f.Env.wrong("env", want)
		}
		for i, name := range f.Env.list {
			if err := procrun.CheckEnvName(name); err != nil {
				return nil, fmt.Errorf("env[%d]: %w", i, err)
			}
		}
		m.Env = f.Env.list
	}
	if f.Network.set {
		if !f.Network.ok {
			return nil, fmt.Errorf("network: want true (the engine may use the host's network under the sandbox) or false, got %s", describe(f.Network.got))
		}
		m.Network = f.Network.v
	}
	if f.Read.set {
		if m.Read, err = parseRead(f.Read, dir); err != nil {
			return nil, err
		}
		m.readGiven = f.Read.list
	}
	if f.Workdir.set {
		switch {
		case f.Workdir.ok && f.Workdir.v == "private":
			m.PrivateWorkDir = true
		case f.Workdir.ok && f.Workdir.v == "manifest":
		default:
			return nil, fmt.Errorf(`workdir: want "manifest" (the engine runs in its manifest's directory, read-only under the sandbox) or "private" (in its private writable /tmp), got %s`, describe(f.Workdir.got))
		}
	}
	return m, nil
}

// unknownKeys refuses the top-level keys file has no field for (TOML's
// undecoded keys) and those that matched one only by case (the decoder
// folds case; a manifest's keys are lower case), naming them and the keys
// accepted.
func unknownKeys(md toml.MetaData) error {
	var unknown []string
	add := func(k toml.Key) {
		if q := strconv.Quote(k[0]); !slices.Contains(unknown, q) {
			unknown = append(unknown, q)
		}
	}
	for _, k := range md.Undecoded() {
		add(k)
	}
	for _, k := range md.Keys() {
		if !slices.Contains(keys, k[0]) {
			add(k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("unknown key %s: accepted are %s", strings.Join(unknown, ", "), strings.Join(keys, ", "))
}

// parseTolerance reads the tolerance key: a duration string such as "1s"
// or "1500ms", from 0 to MaxTolerance, for a gomocup engine only.
func parseTolerance(v scalar[string], p Protocol) (time.Duration, error) {
	want := fmt.Sprintf(`want a duration from "0s" to "%s", e.g. tolerance = "1s" or "500ms"`, MaxTolerance)
	if p != Gomocup {
		return 0, fmt.Errorf("tolerance: only for gomocup engines (the time Gomocup managers accept past timeout_turn); a %s engine gets the host's grace", p)
	}
	if !v.ok {
		return 0, fmt.Errorf("tolerance: %s; got %s", want, describe(v.got))
	}
	d, err := time.ParseDuration(strings.TrimSpace(v.v))
	if err != nil {
		return 0, fmt.Errorf("tolerance: %q is not a duration: %s", v.v, want)
	}
	if d < 0 || d > MaxTolerance {
		return 0, fmt.Errorf("tolerance: %q is out of range: %s", v.v, want)
	}
	return d, nil
}

func parseCommand(v textList, dir string) ([]string, error) {
	const want = `want an array of strings, the program and its arguments, e.g. command = ["./pbrain-x"]`
	switch {
	case !v.set:
		return nil, errors.New("command: missing: " + want)
	case v.bad >= 0:
		return nil, v.wrong("command", want)
	case len(v.list) == 0 || strings.TrimSpace(v.list[0]) == "":
		return nil, errors.New("command: the program is empty: " + want)
	}
	argv := v.list
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

func parseProtocol(v scalar[string]) (Protocol, error) {
	const want = `accepted are "gomocup" (a Gomocup brain) and "kinrow" (the kinrow text protocol)`
	switch {
	case !v.set:
		return "", errors.New("protocol: missing: " + want)
	case !v.ok:
		return "", fmt.Errorf("protocol: want a string: %s; got %s", want, describe(v.got))
	}
	switch p := Protocol(strings.ToLower(strings.TrimSpace(v.v))); p {
	case Gomocup, Kinrow:
		return p, nil
	}
	return "", fmt.Errorf("unknown protocol %q: %s", v.v, want)
}

func parseRules(v textList, p Protocol) ([]engine.Rules, error) {
	want := `want an array of rules strings (` + engine.RulesSyntax + `), e.g. rules = ["gomoku"]`
	switch {
	case !v.set:
		return nil, errors.New("rules: missing: " + want)
	case v.bad >= 0:
		return nil, v.wrong("rules", want)
	case len(v.list) == 0:
		return nil, errors.New("rules: empty: " + want)
	}
	var out []engine.Rules
	for i, s := range v.list {
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

// parseRead reads the read key: paths, absolute or relative to dir, never
// the whole file system.
func parseRead(v textList, dir string) ([]string, error) {
	const want = `want an array of paths the engine reads (absolute, or relative to the manifest's directory), e.g. read = ["weights", "/opt/books"]`
	if !v.array || v.bad >= 0 {
		return nil, v.wrong("read", want)
	}
	out := make([]string, 0, len(v.list))
	for i, p := range v.list {
		if strings.TrimSpace(p) == "" || strings.ContainsRune(p, 0) {
			return nil, fmt.Errorf("read[%d]: %s; got %s", i, want, describe(p))
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if filepath.Clean(p) == "/" {
			return nil, fmt.Errorf("read[%d]: the whole file system (/) is not accepted: %s", i, want)
		}
		out = append(out, filepath.Clean(p))
	}
	return out, nil
}

func parseOptions(v scalar[map[string]any], p Protocol) (map[string]string, error) {
	opts := map[string]string{}
	if !v.set {
		return opts, nil
	}
	if !v.ok {
		return nil, fmt.Errorf("options: want a table of KEY = VALUE ([options] then lines such as max_memory = 350000000); got %s", describe(v.got))
	}
	names := make([]string, 0, len(v.v))
	for k := range v.v {
		names = append(names, k)
	}
	sort.Strings(names) // the first bad option reported is always the same
	for _, k := range names {
		val := v.v[k]
		if err := checkKey(p, k); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
		var s string
		switch t := val.(type) { // an option's value is any TOML scalar, passed on as text
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
	if err := m.checkBinds(); err != nil {
		return fail(err)
	}
	return m, nil
}

// ReadHint says how to give an engine what it reads outside its
// directory.
const ReadHint = `name in read what the engine needs, and no more (e.g. read = ["/root/.pyenv"] for a pyenv Python; docs/BOTS.md, "read")`

// checkBinds refuses, as the sandbox would at the engine's start, a
// manifest whose directory or read paths resolve to what no box may see
// (procrun.CheckBind): the whole file system, the host's /proc, /sys or
// /dev, a home directory, the host's working directory, a directory above
// them. Only where there is a sandbox (Linux).
func (m *Manifest) checkBinds() error {
	if runtime.GOOS != "linux" {
		return nil // no sandbox: nothing is bound, nothing widened
	}
	if err := procrun.CheckBind(m.Dir, nil); err != nil {
		return fmt.Errorf("its directory, which the engine sees: %w: put the manifest and the engine's files in a directory of their own", err)
	}
	for i, p := range m.Read {
		if err := procrun.CheckBind(p, nil); err != nil {
			given := p
			if i < len(m.readGiven) {
				given = m.readGiven[i]
			}
			return fmt.Errorf("read[%d] %q: %w; %s", i, given, err, ReadHint)
		}
	}
	return nil
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
