package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kinrow/kinrow/host/javabridge"
)

const javaManifestUsage = `Usage: kinrow java-manifest --classpath CP --player CLASS [--name NAME]
         [--rules RULES,...] [--fresh] [--jvm-opt OPT ...] [--strength N]
         [--java PATH] [--jar PATH]

Prints on stdout an engine manifest (protocol "kinrow") that plays a course
player (a connectx.CXPlayer or mnkgame.MNKPlayer) through kinrow's Java
bridge, bin/kinrow-java.jar. CP is the course's compiled classes and the
player's, colon-separated; CLASS the player's class, e.g. connectx.L1.L1.
Save the output as NAME.engine.toml in a bot directory ($KINROW_BOT_PATH):

  kinrow java-manifest --classpath ~/course/bin --player connectx.L1.L1 \
      > ~/kinrow-bots/l1.engine.toml

See docs/BOTS.md, "Course players in Java".

Flags:
`

// javaManifestCmd is kinrow java-manifest: it probes the player through the
// bridge (one JVM start) and prints its manifest.
func javaManifestCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow java-manifest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, javaManifestUsage); fs.PrintDefaults() }
	var jvmOpts listFlag
	cp := fs.String("classpath", "", "the course's classes and the player's, colon-separated (required)")
	player := fs.String("player", "", "the player's class, e.g. connectx.L1.L1 (required)")
	name := fs.String("name", "", "the bot's name (default: the class's simple name in lower case)")
	rules := fs.String("rules", "", "the games it offers, comma-separated (default: usual boards of its framework)")
	fresh := fs.Bool("fresh", false, "a new player instance every game (default: one instance, initPlayer each game)")
	fs.Var(&jvmOpts, "jvm-opt", "an option for the JVM, e.g. -Xmx1g (repeatable)")
	strength := fs.Int("strength", 0, "ranks the bot for the default choice")
	java := fs.String("java", "", "the java launcher (default: java on $PATH, else $JAVA_HOME/bin/java)")
	jar := fs.String("jar", "", "the bridge (default: "+javabridge.JarName+" beside kinrow)")
	var sandbox sandboxFlag
	fs.Var(&sandbox, "sandbox", "run the probe (it loads the player's class, running its code) in the sandbox: auto (the default), require or off")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "kinrow java-manifest:", err)
		return 1
	}
	if *cp == "" || *player == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "kinrow java-manifest: --classpath and --player are required, and nothing else")
		fs.Usage()
		return exitUsage
	}
	classPath, err := javabridge.ClassPath(*cp)
	if err != nil {
		return fail(err)
	}
	if *java == "" {
		if *java, err = javabridge.FindJava(); err != nil {
			return fail(err)
		}
	}
	if *jar == "" {
		exe, _ := os.Executable()
		if *jar, err = javabridge.FindJar(exe); err != nil {
			return fail(err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := checkSandbox(sandbox.mode); err != nil {
		return fail(err)
	}
	p, err := javabridge.Probe(ctx, *java, *jar, classPath, *player, sandbox.mode)
	if err != nil {
		return fail(err)
	}
	cfg := javabridge.Config{Name: *name, Java: *java, Jar: *jar, ClassPath: classPath, Player: p,
		JVMOptions: jvmOpts, Fresh: *fresh, Strength: *strength}
	if cfg.Name == "" {
		cfg.Name = javabridge.DefaultName(p.Class)
	}
	if *rules != "" {
		for _, r := range strings.Split(*rules, ",") {
			if r = strings.TrimSpace(r); r != "" {
				cfg.Rules = append(cfg.Rules, r)
			}
		}
	}
	text, err := javabridge.Manifest(cfg)
	if err != nil {
		return fail(err)
	}
	stdout.Write(text)
	return 0
}
