package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
)

func TestParseGood(t *testing.T) {
	gomoku, _ := engine.ParseRules("gomoku")
	big, _ := engine.ParseRules("mnk:20x20x5")
	c4, _ := engine.ParseRules("connect4")
	ttt, _ := engine.ParseRules("tictactoe")
	tests := []struct {
		name, text string
		want       Manifest
	}{
		{"minimal gomocup", `command = ["./b"]
protocol = "gomocup"
rules = ["gomoku"]`, Manifest{Command: []string{"/d/b"}, Protocol: Gomocup, Rules: []engine.Rules{gomoku}, Options: map[string]string{}, Suspend: true}},
		{"kinrow does not suspend by default", `command = ["python3", "bot.py"]
protocol = "KINROW"
rules = ["connect4", "tictactoe", "mnk:3x3x3"]`, Manifest{Command: []string{"python3", "bot.py"}, Protocol: Kinrow, Rules: []engine.Rules{c4, ttt}, Options: map[string]string{}}},
		{"everything", `command = ["/opt/r/pbrain-rapfi", "-x"]
protocol = "gomocup"
rules = ["gomoku", "mnk:20x20x5"]
suspend = false
strength = -3
[options]
max_memory = 350000000
game_type = 1
ratio = 0.5
fast = true
folder = "/tmp/x y"`, Manifest{Command: []string{"/opt/r/pbrain-rapfi", "-x"}, Protocol: Gomocup, Rules: []engine.Rules{gomoku, big},
			Options: map[string]string{"max_memory": "350000000", "game_type": "1", "ratio": "0.5", "fast": "true", "folder": "/tmp/x y"}, Strength: -3}},
		{"a tolerance", `command = ["./b"]
protocol = "gomocup"
rules = ["gomoku"]
tolerance = "1500ms"`, Manifest{Command: []string{"/d/b"}, Protocol: Gomocup, Rules: []engine.Rules{gomoku}, Options: map[string]string{}, Suspend: true,
			Tolerance: 1500 * time.Millisecond, HasTolerance: true}},
		{"no tolerance", `command = ["./b"]
protocol = "gomocup"
rules = ["gomoku"]
tolerance = "0s"`, Manifest{Command: []string{"/d/b"}, Protocol: Gomocup, Rules: []engine.Rules{gomoku}, Options: map[string]string{}, Suspend: true, HasTolerance: true}},
		{"a memory cap and environment", `command = ["./b"]
protocol = "gomocup"
rules = ["gomoku"]
max_memory = "350M"
env = ["OMP_NUM_THREADS"]`, Manifest{Command: []string{"/d/b"}, Protocol: Gomocup, Rules: []engine.Rules{gomoku}, Options: map[string]string{}, Suspend: true,
			MaxMemory: 350 << 20, Env: []string{"OMP_NUM_THREADS"}}},
		{"the sandbox's keys", `command = ["./b"]
protocol = "kinrow"
rules = ["connect4"]
network = true
read = ["weights", "/opt/books/"]
workdir = "private"`, Manifest{Command: []string{"/d/b"}, Protocol: Kinrow, Rules: []engine.Rules{c4}, Options: map[string]string{},
			Network: true, Read: []string{"/d/weights", "/opt/books"}, PrivateWorkDir: true, readGiven: []string{"weights", "/opt/books/"}}},
		{"a string command and rules", `command = "sub/brain"
protocol = "gomocup"
rules = "gomoku"`, Manifest{Command: []string{"/d/sub/brain"}, Protocol: Gomocup, Rules: []engine.Rules{gomoku}, Options: map[string]string{}, Suspend: true}},
	}
	for _, tc := range tests {
		m, err := Parse([]byte(tc.text), "x", "/d")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		tc.want.Name, tc.want.Dir = "x", "/d"
		if !reflect.DeepEqual(*m, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, *m, tc.want)
		}
	}
}

func TestParseBad(t *testing.T) {
	const ok = "command = [\"./b\"]\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]\n"
	tests := []struct {
		text, want string
	}{
		{`protocol = "gomocup"` + "\nrules = [\"gomoku\"]", "command: missing: want an array of strings"},
		{`command = []` + "\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]", "command: the program is empty"},
		{`command = [1]` + "\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]", "command[0]: want an array of strings"},
		{`command = {a = 1}` + "\nprotocol = \"gomocup\"\nrules = [\"gomoku\"]", "got a table"},
		{`command = ["./b"]` + "\nrules = [\"gomoku\"]", `protocol: missing: accepted are "gomocup"`},
		{`command = ["./b"]` + "\nprotocol = \"uci\"\nrules = [\"gomoku\"]", `unknown protocol "uci": accepted are "gomocup" (a Gomocup brain) and "kinrow"`},
		{`command = ["./b"]` + "\nprotocol = 3\nrules = [\"gomoku\"]", "protocol: want a string"},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"", "rules: missing"},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"\nrules = []", "rules: empty"},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"\nrules = [\"chess\"]", `rules[0]: unknown rules "chess": accepted are connect4`},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"\nrules = [\"gomoku\", \"connect4\"]", "rules[1]: connect4 (connectx:6x7x4): a gomocup engine plays five in a row"},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"\nrules = [\"mnk:4x4x4\"]", "want mnk:RxCx5 with sides from 5"},
		{`command = ["./b"]` + "\nprotocol = \"kinrow\"\nrules = [\"mnk:0x4x4\"]", "rows 0 out of range"},
		{ok + "suspend = \"yes\"", "suspend: want true or false, got the string \"yes\""},
		{ok + "strength = 1.5", "strength: want a whole number"},
		{ok + "comand = [\"x\"]", `unknown key "comand": accepted are command, protocol, rules, options, suspend, strength, tolerance, max_memory, env`},
		{ok + "Command = [\"x\"]", `unknown key "Command": accepted are command, protocol`},
		{ok + "[extra.sub]\na = 1\n[more]\nb = 2", `unknown key "extra", "more": accepted are`},
		{ok + "strength = 3000000000", "strength: want a whole number (higher is stronger), got the number 3000000000"},
		{ok + "network = 1", "network: want true (the engine may use the host's network under the sandbox) or false, got the number 1"},
		{ok + "workdir = \"home\"", `workdir: want "manifest" (the engine runs in its manifest's directory, read-only under the sandbox) or "private" (in its private writable /tmp), got the string "home"`},
		{ok + "read = \"weights\"", "read: want an array of paths the engine reads"},
		{ok + "read = [\"w\", 2]", "read[1]: want an array of paths the engine reads (absolute, or relative to the manifest's directory), e.g. read = [\"weights\", \"/opt/books\"]; got the number 2"},
		{ok + "read = [\"/\"]", "read[0]: the whole file system (/) is not accepted"},
		{ok + "env = [\"A\", true]", "env[1]: want an array of environment variable names, e.g. env = [\"OMP_NUM_THREADS\"]; got the boolean true"},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"\nrules = [\"gomoku\", 5]", "rules[1]: want an array of rules strings"},
		{`command = ["./b"]` + "\nprotocol = \"gomocup\"\nrules = 5", "rules: want an array of rules strings"},
		{ok + "[[options]]\na = 1", "options: want a table of KEY = VALUE"},
		{ok + "max_memory = 350", `max_memory: want a size string such as "350M" or "2GiB", got the number 350`},
		{ok + "max_memory = \"lots\"", `max_memory: memory size "lots": want a positive number of bytes`},
		{ok + "max_memory = \"0\"", `max_memory: memory size "0": must be more than 0`},
		{ok + "max_memory = \"-5M\"", `max_memory: memory size "-5M": must be more than 0`},
		{ok + "env = \"PATH\"", "env: want an array of environment variable names"},
		{ok + "env = [\"A=B\"]", `env[0]: environment variable name "A=B": only letters, digits and _ are accepted`},
		{ok + "tolerance = 1000", `tolerance: want a duration from "0s" to "1m0s", e.g. tolerance = "1s" or "500ms"; got the number 1000`},
		{ok + "tolerance = \"1 s\"", `tolerance: "1 s" is not a duration: want a duration from "0s"`},
		{ok + "tolerance = \"-1s\"", `tolerance: "-1s" is out of range`},
		{ok + "tolerance = \"2m\"", `tolerance: "2m" is out of range`},
		{"command = [\"./b\"]\nprotocol = \"kinrow\"\nrules = [\"connect4\"]\ntolerance = \"1s\"", "tolerance: only for gomocup engines"},
		{ok + "options = 3", "options: want a table of KEY = VALUE"},
		{ok + "[options]\nhash = [1, 2]", "options: hash: want a string, a number or a boolean; got an array"},
		{ok + "[options]\nsub = {a = 1}", "options: sub: want a string, a number or a boolean; got a table"},
		{ok + "[options]\n\"a b\" = 1", `option name "a b": want a word`},
		{ok + "[options]\ntimeout_turn = 1000", "option timeout_turn: the host sets INFO timeout_turn itself"},
		{ok + "[options]\nRule = 1", "the host sets INFO rule itself"},
		{ok + "[options]\nname = \"a\\nb\"", "option name: the value contains a control character"},
		{"command = [\"./b\"]\nprotocol = \"kinrow\"\nrules = [\"gomoku\"]\n[options]\nx = \"a#b\"", "contains '#', a comment in the kinrow protocol"},
		{"command = [\"./b\"\n", "not valid TOML"},
		{ok + "rules = [\"gomoku\"]", "not valid TOML"},
		{"command = [\"./b\\u0000\"]\nprotocol = \"kinrow\"\nrules = [\"gomoku\"]", "command[0]: contains a NUL byte"},
		{strings.Repeat("#", MaxBytes+1), "at most 65536 are accepted"},
	}
	for _, tc := range tests {
		_, err := Parse([]byte(tc.text), "x", "/d")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error = %v; want %q", tc.text, err, tc.want)
		}
	}
}

func TestLoadTestdata(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	tests := []struct {
		file, want string // want: "" for a good manifest, else part of the error
	}{
		{"rapfi", ""},
		{"script", ""}, // python3 on $PATH, or the error says so
		{"nocommand", "command: missing"},
		{"badproto", `unknown protocol "uci"`},
		{"badoption", "options: hash: want a string, a number or a boolean"},
		{"missingexe", `command "` + filepath.Join(dir, "no-such-brain") + `": stat`},
		{"nosuch", "no such file"},
	}
	for _, tc := range tests {
		path := filepath.Join("testdata", tc.file+".engine.toml")
		m, err := Load(path, tc.file)
		if tc.file == "script" {
			if _, lerr := os.Stat("/usr/bin/python3"); err != nil && lerr == nil {
				t.Errorf("%s: %v", tc.file, err)
			}
			if err != nil && !strings.Contains(err.Error(), "not found on $PATH") {
				t.Errorf("%s: %v", tc.file, err)
			}
			continue
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.file, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file+".engine.toml")):
			t.Errorf("%s: error %v; want %q and the file's name", tc.file, err, tc.want)
		}
		if tc.file == "rapfi" && err == nil {
			exe, _ := m.Executable()
			if m.Path != filepath.Join(dir, "rapfi.engine.toml") || m.Dir != dir || exe != filepath.Join(dir, "pbrain-fake") ||
				m.Command[1] != "--quiet" || m.Strength != 70 || !m.Suspend || m.Options["max_memory"] != "350000000" {
				t.Errorf("rapfi: %+v (executable %s)", m, exe)
			}
			if !m.Lists(engine.Rules{Kind: engine.MNK, Rows: 20, Cols: 20, K: 5}) || m.Lists(engine.Connect4()) {
				t.Errorf("Lists is wrong for %s", m.RulesText())
			}
			if m.RulesText() != "mnk:15x15x5, mnk:20x20x5" {
				t.Errorf("RulesText = %q", m.RulesText())
			}
		}
	}
}

func TestExecutable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "brain"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "plain"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	tests := []struct {
		cmd, want string // want: the path, or "!" + part of the error
	}{
		{"brain", filepath.Join(dir, "brain")}, // a bare name beside the manifest
		{"./brain", filepath.Join(dir, "brain")},
		{"sh", "/"}, // a bare name on $PATH
		{"./plain", "!not executable"},
		{"./sub", "!not a regular file"},
		{"./missing", "!no such file"},
		{"surely-no-such-program-kinrow", "!not found on $PATH"},
	}
	for _, tc := range tests {
		m, err := Parse([]byte(`command = ["`+tc.cmd+`"]`+"\nprotocol = \"kinrow\"\nrules = [\"connect4\"]"), "x", dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Executable()
		if strings.HasPrefix(tc.want, "!") {
			if err == nil || !strings.Contains(err.Error(), tc.want[1:]) {
				t.Errorf("%s: %q, %v; want error %q", tc.cmd, got, err, tc.want[1:])
			}
		} else if err != nil || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.cmd, got, err, tc.want)
		}
	}
}

func TestCheckOption(t *testing.T) {
	tests := []struct {
		p          Protocol
		key, value string
		want       string // "" for accepted
	}{
		{Gomocup, "max_memory", "1000", ""},
		{Gomocup, "folder", "a # b", ""},
		{Kinrow, "seed", "a # b", "contains '#'"},
		{Kinrow, "time_left", "1", ""}, // reserved for Gomocup only
		{Gomocup, "TIME_LEFT", "1", "the host sets INFO time_left"},
		{Gomocup, "", "1", "empty option name"},
		{Gomocup, "a=b", "1", "want a word"},
		{Kinrow, "x", "a\rb", "control character"},
	}
	for _, tc := range tests {
		err := CheckOption(tc.p, tc.key, tc.value)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckOption(%s, %q, %q) = %v; want %q", tc.p, tc.key, tc.value, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.engine.toml"))
	for _, file := range files {
		b, _ := os.ReadFile(file)
		f.Add(b)
	}
	f.Add([]byte("command = \"x\"\nprotocol = \"kinrow\"\nrules = \"connect4\"\n[options]\na = 1.5e300"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, "x", "/d")
		if err != nil {
			if err.Error() == "" || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q: want one non-empty line", err)
			}
			return
		}
		if len(m.Command) == 0 || m.Command[0] == "" || len(m.Rules) == 0 ||
			(m.Protocol != Gomocup && m.Protocol != Kinrow) || m.Options == nil {
			t.Fatalf("accepted an incomplete manifest: %+v", m)
		}
		for _, r := range m.Rules {
			if err := r.Validate(); err != nil {
				t.Fatalf("accepted rules %v: %v", r, err)
			}
			if m.Protocol == Gomocup && (r.Kind != engine.MNK || r.K != 5) {
				t.Fatalf("gomocup engine with rules %s", r)
			}
		}
		for k, v := range m.Options {
			if err := CheckOption(m.Protocol, k, v); err != nil {
				t.Fatalf("accepted option %q=%q: %v", k, v, err)
			}
		}
	})
}

// Issue 35: a read path is resolved (made absolute against the manifest's
// directory, links followed) and refused at load, before any game, when
// it resolves to what no box may see; the error names the manifest, the
// key, the path as written, what it resolves to and why, and says how to
// name what the engine needs. The old check compared the written path with
// "/" only.
func TestLoadRefusesWideReads(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no sandbox here: read paths widen nothing")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b")
	if err := os.MkdirAll(filepath.Join(dir, "weights"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	if err := os.MkdirAll(filepath.Join(home, ".pyenv"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	work := filepath.Join(base, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	if err := os.WriteFile(filepath.Join(dir, "engine"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"root": "/", "up": strings.Repeat("../", strings.Count(dir, "/")+1)} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		read, want string // want "": loads
	}{
		{`"root"`, `read[0] "root": "` + filepath.Join(dir, "root") + `" resolves to /, refused: it is the host's whole file system`},
		{`"up"`, `read[0] "up": "` + filepath.Join(dir, "up") + `" resolves to /, refused`},
		{`"weights", "../.."`, `read[1] "../..": "` + base + `" is refused: it holds ` + home},
		{`"../../work"`, "the host's working directory"},
		{`"` + home + `"`, "a home directory"},
		{`"/proc/self"`, "the host's /proc"},
		{`"/"`, "the whole file system (/) is not accepted"},
		{`"weights", "` + filepath.Join(home, ".pyenv") + `", "/usr/lib"`, ""},
	} {
		path := filepath.Join(dir, "x.engine.toml")
		text := "command = [\"./engine\"]\nprotocol = \"kinrow\"\nrules = [\"connect4\"]\nread = [" + tc.read + "]\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path, "x")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("read = [%s]: %v", tc.read, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "manifest "+path+": ")):
			t.Errorf("read = [%s]: %v, want %q after the manifest's path", tc.read, err, tc.want)
		case err != nil && !strings.Contains(err.Error(), "/.pyenv") && !strings.Contains(tc.want, "(/)"):
			t.Errorf("read = [%s]: %v does not say how to name what the engine needs", tc.read, err)
		}
	}
	// A manifest in a home directory shows the engine the whole home.
	path := filepath.Join(home, "x.engine.toml")
	if err := os.WriteFile(path, []byte("command = [\"/bin/true\"]\nprotocol = \"kinrow\"\nrules = [\"connect4\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, "x"); err == nil || !strings.Contains(err.Error(), "its directory, which the engine sees") || !strings.Contains(err.Error(), "a home directory") {
		t.Errorf("a manifest in $HOME: %v", err)
	}
}
