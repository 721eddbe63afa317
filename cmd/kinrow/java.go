package main

import (
	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/host/containflags"
	"github.com/kinrow/kinrow/host/javabridge"
)

const javaManifestLong = `Prints on stdout an engine manifest (protocol "kinrow") that plays a course
player (a connectx.CXPlayer or mnkgame.MNKPlayer) through kinrow's Java
bridge, bin/kinrow-java.jar. CP is the course's compiled classes and the
player's, colon-separated; CLASS the player's class, e.g. connectx.L1.L1.
Save the output as NAME.engine.toml in a bot directory ($KINROW_BOT_PATH).
See docs/BOTS.md, "Course players in Java".`

// javaManifestCommand is kinrow java-manifest: flags to javabridge.
func javaManifestCommand(e env) *cobra.Command {
	var r javabridge.Request
	var sandbox containflags.Sandbox
	c := newCommand("java-manifest --classpath CP --player CLASS", "an engine manifest for a course Java player", javaManifestLong, cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			if r.ClassPath == "" || r.Player == "" {
				return bad("--classpath and --player are required (kinrow java-manifest --help)")
			}
			r.Sandbox = sandbox.Mode
			err := containflags.CheckSandbox(r.Sandbox)
			var text []byte
			if err == nil {
				text, err = javabridge.MakeManifest(e.ctx, r)
			}
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(text)
			return err
		})
	c.Example = "  kinrow java-manifest --classpath ~/course/bin --player connectx.L1.L1 > ~/kinrow-bots/l1.engine.toml"
	fs := c.Flags()
	fs.StringVar(&r.ClassPath, "classpath", "", "the course's classes and the player's, colon-separated (required)")
	fs.StringVar(&r.Player, "player", "", "the player's class, e.g. connectx.L1.L1 (required)")
	fs.StringVar(&r.Name, "name", "", "the bot's name (default: the class's simple name in lower case)")
	fs.StringSliceVar(&r.Rules, "rules", nil, "the games it offers, comma-separated (default: usual boards of its framework)")
	fs.BoolVar(&r.Fresh, "fresh", false, "a new player instance every game (default: one instance, initPlayer each game)")
	fs.StringArrayVar(&r.JVMOptions, "jvm-opt", nil, "an option for the JVM, e.g. -Xmx1g (repeatable)")
	fs.IntVar(&r.Strength, "strength", 0, "ranks the bot for the default choice")
	fs.StringVar(&r.Java, "java", "", "the java launcher (default: java on $PATH, else $JAVA_HOME/bin/java)")
	fs.StringVar(&r.Jar, "jar", "", "the bridge (default: "+javabridge.JarName+" beside kinrow)")
	fs.Var(&sandbox, "sandbox", "run the probe (it loads the player's class, running its code) in the sandbox: auto (the default), require or off")
	return c
}
