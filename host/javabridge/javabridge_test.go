package javabridge

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/manifest"
)

func TestParseProbe(t *testing.T) {
	tests := []struct {
		name, out string
		want      Player
		err       string
	}{
		{"connectx", "kind connectx\nclass connectx.L1.L1\njava 17\n", Player{ConnectX, "connectx.L1.L1", 17}, ""},
		{"mnk, CRLF", "kind mnk\r\nclass a.B\r\njava 21\r\n", Player{MNK, "a.B", 21}, ""},
		{"noise around", "Picked up JAVA_TOOL_OPTIONS\nkind mnk\nclass P\njava 24\n", Player{MNK, "P", 24}, ""},
		{"no kind", "class P\njava 17\n", Player{}, "want kind connectx or mnk"},
		{"other kind", "kind go\nclass P\n", Player{}, "want kind connectx or mnk"},
		{"bad java", "kind mnk\njava seventeen\n", Player{}, "java version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseProbe(tt.out)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func FuzzParseProbe(f *testing.F) {
	f.Add("kind connectx\nclass connectx.L1.L1\njava 17\n")
	f.Add("kind mnk\njava 99999999999999999999\n")
	f.Fuzz(func(t *testing.T, out string) {
		p, err := ParseProbe(out)
		if err == nil && p.Kind != ConnectX && p.Kind != MNK {
			t.Fatalf("accepted kind %q", p.Kind)
		}
	})
}

func config(kind Kind, feature int) Config {
	return Config{
		Name:      "L1 \"quoted\"",
		Java:      "/usr/lib/jvm/java 17/bin/java",
		Jar:       `/opt/kin"row/kinrow-java.jar`,
		ClassPath: []string{"/home/me/course/bin", `/home/me/odd\dir`},
		Player:    Player{Kind: kind, Class: "connectx.L1.L1", JavaFeature: feature},
	}
}

// The manifest is one the host reads back, with the command, rules and
// options intact, whatever the paths hold.
func TestManifestParses(t *testing.T) {
	for _, tt := range []struct {
		kind      Kind
		feature   int
		rules     []string
		wantRules int
		allow     bool
	}{
		{ConnectX, 17, nil, len(DefaultRules(ConnectX)), false},
		{MNK, 21, []string{"tictactoe", "mnk:7x7x5"}, 2, true},
		{ConnectX, 24, []string{"connect4"}, 1, false},
	} {
		c := config(tt.kind, tt.feature)
		c.Rules, c.Fresh, c.Strength, c.JVMOptions = tt.rules, true, 7, []string{"-Xmx256m"}
		text, err := Manifest(c)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Parse(text, "l1", t.TempDir())
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if m.Protocol != manifest.Kinrow || !m.Suspend || m.Strength != 7 || len(m.Rules) != tt.wantRules || m.Options["fresh"] != "true" {
			t.Errorf("manifest %+v\n%s", m, text)
		}
		if !slices.Equal(m.Command, Command(c)) {
			t.Errorf("command %q, want %q", m.Command, Command(c))
		}
		if got := slices.Contains(m.Command, "-Djava.security.manager=allow"); got != tt.allow {
			t.Errorf("java %d: security manager flag %v, want %v", tt.feature, got, tt.allow)
		}
		// The guard's options come first, the user's after them (a later
		// option wins).
		if i, j := slices.Index(m.Command, "-XX:+DisableAttachMechanism"), slices.Index(m.Command, "-Xmx256m"); i < 0 || j < i {
			t.Errorf("java %d: options %q", tt.feature, m.Command)
		}
		// The sandbox binds no argument's path outside the manifest's
		// directory: the jar and the class path are in read.
		if want := []string{c.Jar, "/home/me/course/bin", `/home/me/odd\dir`}; !slices.Equal(m.Read, want) {
			t.Errorf("read %q, want %q", m.Read, want)
		}
		cp := m.Command[slices.Index(m.Command, "-cp")+1]
		if cp != c.Jar+":/home/me/course/bin:"+`/home/me/odd\dir` {
			t.Errorf("class path %q", cp)
		}
		if !strings.Contains(m.Command[2], "kinrow-java-L1quoted.") || m.Command[len(m.Command)-1] != "connectx.L1.L1" {
			t.Errorf("command %q", m.Command)
		}
	}
}

// Each JDK gets the options that refuse the player what the bridge's
// guard refuses where there is one: the guard itself on 18 to 23 (17 has
// it by default), no attaching agents, Unsafe's memory access from 23 and
// native code from 24, where no guard can be installed.
func TestGuardOptions(t *testing.T) {
	for feature, want := range map[int][]string{
		17: {"-XX:+DisableAttachMechanism"},
		21: {"-Djava.security.manager=allow", "-XX:+DisableAttachMechanism"},
		23: {"-Djava.security.manager=allow", "-XX:+DisableAttachMechanism", "--sun-misc-unsafe-memory-access=deny"},
		25: {"-XX:+DisableAttachMechanism", "--sun-misc-unsafe-memory-access=deny", "--illegal-native-access=deny"},
	} {
		if got := GuardOptions(feature); !slices.Equal(got, want) {
			t.Errorf("GuardOptions(%d) = %q, want %q", feature, got, want)
		}
	}
}

func TestManifestRefusesRulesOfTheOtherFramework(t *testing.T) {
	c := config(ConnectX, 17)
	c.Rules = []string{"connect4", "tictactoe"}
	if _, err := Manifest(c); err == nil || !strings.Contains(err.Error(), `rules "tictactoe"`) || !strings.Contains(err.Error(), "ConnectX player") {
		t.Errorf("mnk rules for a ConnectX player: %v", err)
	}
	c.Rules = []string{"connectx:0x7x4"}
	if _, err := Manifest(c); err == nil || !strings.Contains(err.Error(), "rows 0 out of range") {
		t.Errorf("bad rules: %v", err)
	}
}

func TestDefaultName(t *testing.T) {
	for class, want := range map[string]string{"connectx.L1.L1": "l1", "MyPlayer": "myplayer", "a.b.$$": "java", "x.Ünï_2": "n_2"} {
		if got := DefaultName(class); got != want {
			t.Errorf("DefaultName(%q) = %q, want %q", class, got, want)
		}
	}
}

func TestClassPathAndJar(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "course"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	got, err := ClassPath("course::" + dir)
	if err != nil || !slices.Equal(got, []string{filepath.Join(dir, "course"), dir}) {
		t.Errorf("ClassPath: %q, %v", got, err)
	}
	if _, err := ClassPath("course:nosuch"); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("missing entry: %v", err)
	}
	if _, err := ClassPath("::"); err == nil || !strings.Contains(err.Error(), "empty class path") {
		t.Errorf("empty: %v", err)
	}
	exe := filepath.Join(dir, "kinrow")
	if _, err := FindJar(exe); err == nil || !strings.Contains(err.Error(), "build it with make") {
		t.Errorf("no jar: %v", err)
	}
	os.WriteFile(filepath.Join(dir, JarName), nil, 0o644)
	if p, err := FindJar(exe); err != nil || p != filepath.Join(dir, JarName) {
		t.Errorf("FindJar: %q, %v", p, err)
	}
}

func FuzzQuote(f *testing.F) {
	f.Add(`plain`)
	f.Add("tab\tquote\"back\\slash\x7f\x00é")
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.ContainsRune(s, 0) && strings.ToValidUTF8(s, "") == s {
			text := "command = [" + Quote(s) + ", \"x\"]\nprotocol = \"kinrow\"\nrules = [\"connect4\"]\n"
			m, err := manifest.Parse([]byte(text), "q", "/")
			if err != nil {
				if strings.TrimSpace(s) == "" {
					return // an empty program is refused
				}
				t.Fatalf("%q: %v", s, err)
			}
			want := s
			if strings.ContainsRune(s, '/') && !filepath.IsAbs(s) {
				want = filepath.Join("/", s)
			}
			if m.Command[0] != want {
				t.Fatalf("round trip %q -> %q", s, m.Command[0])
			}
		}
	})
}

// The manifest docs/BOTS.md shows is exactly what Manifest writes for it.
func TestManifestInTheDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "BOTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	var block string
	for _, part := range strings.Split(string(doc), "```toml\n")[1:] {
		text, _, _ := strings.Cut(part, "```")
		if strings.Contains(text, MainClass) {
			block = text
		}
	}
	if block == "" {
		t.Fatal("docs/BOTS.md shows no manifest of the bridge")
	}
	want, err := Manifest(Config{Name: "l1", Java: "/usr/bin/java", Jar: "/home/me/kinrow/bin/kinrow-java.jar",
		ClassPath: []string{"/home/me/course/bin"}, Player: Player{Kind: ConnectX, Class: "connectx.L1.L1", JavaFeature: 17}})
	if err != nil {
		t.Fatal(err)
	}
	if block != string(want) {
		t.Errorf("docs/BOTS.md shows\n%s\nManifest writes\n%s", block, want)
	}
}
