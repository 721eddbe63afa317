package javabridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/procrun"
)

// JarName is the bridge's file name; make builds it into bin/.
const JarName = "kinrow-java.jar"

// MainClass is the bridge's entry point in the jar.
const MainClass = "kinrow.bridge.Main"

// Kind is a course framework.
type Kind string

// The frameworks the bridge hosts players of.
const (
	// ConnectX is the course's connectx package (connectx.CXPlayer).
	ConnectX Kind = "connectx"
	// MNK is the course's mnkgame package (mnkgame.MNKPlayer).
	MNK Kind = "mnk"
)

// DefaultRules are the games a manifest lists when none are given: kinrow's
// usual boards of the framework's kind.
func DefaultRules(k Kind) []string {
	if k == ConnectX {
		return []string{"connect4", "connectx:5x4x4", "connectx:6x4x4", "connectx:20x20x10", "connectx:30x30x10", "connectx:40x40x10", "connectx:50x50x10"}
	}
	return []string{"tictactoe", "mnk:4x4x4", "mnk:5x5x4", "mnk:6x6x4", "mnk:7x7x4", "mnk:8x8x4", "mnk:10x10x5", "gomoku"}
}

// Player is what the bridge's probe says about a course player.
type Player struct {
	// Kind is its framework.
	Kind Kind
	// Class is its class name.
	Class string
	// JavaFeature is the JDK's feature version (17, 21, …).
	JavaFeature int
}

// FindJava returns the java launcher: java on $PATH, else $JAVA_HOME/bin/java.
func FindJava() (string, error) {
	if p, err := exec.LookPath("java"); err == nil {
		return p, nil
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("java not found on $PATH or in $JAVA_HOME/bin: install a JDK or JRE 17 or later (Debian: apt-get install default-jdk-headless)")
}

// FindJar returns the bridge's jar beside the executable exe (bin/kinrow
// and bin/kinrow-java.jar), with an error saying how to build it.
func FindJar(exe string) (string, error) {
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), JarName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		return "", fmt.Errorf("%s not found beside %s: build it with make (it needs javac, a JDK 17 or later), or give --jar", JarName, exe)
	}
	return "", fmt.Errorf("%s: no executable to look beside: give --jar", JarName)
}

// ClassPath makes every entry of a colon-separated class path absolute
// (against the current directory), as the bridge runs elsewhere; empty
// entries are dropped.
func ClassPath(cp string) ([]string, error) {
	var out []string
	for _, e := range filepath.SplitList(cp) {
		if e == "" {
			continue
		}
		abs, err := filepath.Abs(e)
		if err != nil {
			return nil, fmt.Errorf("class path entry %q: %w", e, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("class path entry %q: %w", e, err)
		}
		out = append(out, abs)
	}
	if len(out) == 0 {
		return nil, errors.New("empty class path: give the course's compiled classes and the player's, colon-separated")
	}
	return out, nil
}

// Probe runs the bridge on the player class to learn its framework, which
// also checks that the class path holds it and the framework. The bridge
// loads the class without initializing it, so none of the player's code
// runs; the JVM runs through the host's process runner all the same, in
// the sandbox under mode (procrun.Sandbox: the JDK, the jar and the class
// path read-only, nothing else of the host), as the player does in a
// match.
func Probe(ctx context.Context, java, jar string, classPath []string, class string, mode procrun.SandboxMode) (Player, error) {
	cp := strings.Join(append([]string{jar}, classPath...), string(filepath.ListSeparator))
	cmd := exec.Command(java, "-cp", cp, MainClass, "--probe", "--player", class)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = procrun.MinimalEnv(os.Environ(), nil, nil)
	run, err := procrun.Start(ctx, cmd, procrun.Config{Name: "java probe of " + class,
		Sandbox: procrun.Sandbox{Mode: mode, Read: append([]string{jar, JavaHome(java)}, classPath...)}})
	if err != nil {
		return Player{}, fmt.Errorf("probe %s: %w", class, err)
	}
	err = run.Wait(ctx)
	run.Kill()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return Player{}, fmt.Errorf("probe %s: %s (%w)", class, lastLine(msg), err)
		}
		return Player{}, fmt.Errorf("probe %s: %w", class, err)
	}
	p, err := ParseProbe(stdout.String())
	if err != nil {
		return Player{}, fmt.Errorf("probe %s: %w", class, err)
	}
	return p, nil
}

// JavaHome is the JDK that java (a launcher, …/bin/java, through any
// links) belongs to: the directory above its bin; "" if it cannot tell.
func JavaHome(java string) string {
	p, err := filepath.EvalSymlinks(java)
	if err != nil {
		return ""
	}
	return filepath.Dir(filepath.Dir(p))
}

// ParseProbe reads the bridge's --probe output: "kind K", "class C", "java N"
// lines.
func ParseProbe(out string) (Player, error) {
	var p Player
	for _, line := range strings.Split(out, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		switch key {
		case "kind":
			p.Kind = Kind(val)
		case "class":
			p.Class = val
		case "java":
			n, err := strconv.Atoi(val)
			if err != nil {
				return Player{}, fmt.Errorf("java version %q: %w", val, err)
			}
			p.JavaFeature = n
		}
	}
	if p.Kind != ConnectX && p.Kind != MNK {
		return Player{}, fmt.Errorf("unexpected answer %q: want kind connectx or mnk", strings.TrimSpace(out))
	}
	return p, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Config describes the manifest to write.
type Config struct {
	// Name is the bot's name (the manifest is saved as Name.engine.toml).
	Name string
	// Java is the launcher, Jar the bridge's jar (absolute paths).
	Java, Jar string
	// ClassPath is the course's classes and the player's (absolute).
	ClassPath []string
	// Player is the probed player.
	Player Player
	// Rules are the games it offers (default DefaultRules of its kind).
	Rules []string
	// JVMOptions go before the class path (-Xmx1g, …).
	JVMOptions []string
	// Fresh makes a new player instance for every game (the course's
	// tester reuses one and calls initPlayer again).
	Fresh bool
	// Strength ranks the bot for the default choice.
	Strength int
}

// DefaultName is a bot name for a player class: its simple name in lower
// case, letters, digits, '-' and '_' kept.
func DefaultName(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		class = class[i+1:]
	}
	return sanitize(strings.ToLower(class))
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "java"
	}
	return b.String()
}

// launcher is the sh script of the manifest's command: a fresh working
// directory of its own for each bridge process, then the JVM in its place
// ($0 and $@ are the JVM's argv, so nothing is quoted twice), answering on
// descriptor 3 (the host's pipe) with its stdout on stderr (the log), so
// nothing a player or the JVM prints reaches the protocol.
const launcher = `d=$(mktemp -d "${TMPDIR:-/tmp}/kinrow-java-%s.XXXXXX") && cd "$d" && exec "$0" "$@" --own-workdir --protocol-fd 3 3>&1 1>&2`

// Command is the manifest's argv: sh making the working directory, then
// java running the bridge on the player, with the JVM options that keep
// the player from the bridge's key (docs/BOTS.md, "What the bridge
// guarantees") before the user's own.
func Command(c Config) []string {
	argv := []string{"/bin/sh", "-c", fmt.Sprintf(launcher, sanitize(c.Name)), c.Java}
	argv = append(argv, GuardOptions(c.Player.JavaFeature)...)
	argv = append(argv, c.JVMOptions...)
	cp := strings.Join(append([]string{c.Jar}, c.ClassPath...), string(filepath.ListSeparator))
	return append(argv, "-cp", cp, MainClass, "--player", c.Player.Class)
}

// GuardOptions are the JVM options of the bridge's command for a JDK of
// that feature version: the bridge's guard (a security manager) allowed on
// JDK 18 to 23, which allow one only when asked (17 by default, 24 and
// later never); no agent attaching to the running JVM (it could read the
// bridge's memory); on 23 and later sun.misc.Unsafe's memory access, and on
// 24 and later native code (JNI, and the foreign function API's
// restricted methods) for the class path, refused: what the guard refuses
// on the JDKs that have one.
func GuardOptions(feature int) []string {
	opts := []string{}
	if feature >= 18 && feature <= 23 {
		opts = append(opts, "-Djava.security.manager=allow")
	}
	opts = append(opts, "-XX:+DisableAttachMechanism")
	if feature >= 23 {
		opts = append(opts, "--sun-misc-unsafe-memory-access=deny")
	}
	if feature >= 24 {
		opts = append(opts, "--illegal-native-access=deny")
	}
	return opts
}

// Manifest returns the manifest's text, checking the rules.
func Manifest(c Config) ([]byte, error) {
	rules := c.Rules
	if len(rules) == 0 {
		rules = DefaultRules(c.Player.Kind)
	}
	for _, s := range rules {
		r, err := engine.ParseRules(s)
		if err != nil {
			return nil, fmt.Errorf("rules %q: %w", s, err)
		}
		if r.Gravity() != (c.Player.Kind == ConnectX) {
			return nil, fmt.Errorf("rules %q: %s is a %s player; it plays %s rules only", s, c.Player.Class, frameworkName(c.Player.Kind), c.Player.Kind)
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The course player %s (%s) through kinrow's Java bridge.\n", c.Player.Class, frameworkName(c.Player.Kind))
	fmt.Fprintf(&b, "# Written by kinrow java-manifest; save it as %s.engine.toml in a bot directory\n", sanitize(c.Name))
	b.WriteString("# ($KINROW_BOT_PATH, or beside kinrow). See docs/BOTS.md, \"Course players in Java\".\n")
	b.WriteString("command  = [")
	for i, a := range Command(c) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(a))
	}
	b.WriteString("]\n")
	b.WriteString("protocol = \"kinrow\"\n")
	b.WriteString("rules    = [")
	for i, s := range rules {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(s))
	}
	b.WriteString("]\n")
	b.WriteString("suspend  = true  # the JVM is stopped while the opponent thinks, as any engine\n")
	fmt.Fprintf(&b, "strength = %d\n", c.Strength)
	if read := ReadPaths(c); len(read) > 0 {
		b.WriteString("read     = [")
		for i, p := range read {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Quote(p))
		}
		b.WriteString("]  # what the JVM reads, for the sandbox: the JDK, the bridge's jar, the class path\n")
	}
	b.WriteString("\n[options]\n")
	fmt.Fprintf(&b, "fresh = %t  # true: a new player instance every game (false: one instance, initPlayer again each game, as the course's tester)\n", c.Fresh)
	return b.Bytes(), nil
}

// ReadPaths are the paths the bridge's JVM reads outside the system
// directories: the JDK (when java is not a system one), the bridge's jar
// and the class path. The sandbox binds a command's arguments only inside
// its manifest's directory, so the manifest lists them in read.
func ReadPaths(c Config) []string {
	var out []string
	for _, p := range append([]string{JavaHome(c.Java), c.Jar}, c.ClassPath...) {
		if p != "" && !procrun.UnderSystem(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func frameworkName(k Kind) string {
	if k == ConnectX {
		return "ConnectX"
	}
	return "MNKGame"
}

// Quote writes s as a TOML basic string.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
