package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/registry"
)

// withDoctorBot adds --bot NAME to kinrow doctor: what that bot's box
// sees instead of the machine's account.
func withDoctorBot(e env, c *cobra.Command) *cobra.Command {
	var bot string
	c.Flags().StringVar(&bot, "bot", "", "list what bot `NAME`'s sandbox sees: every mount, what each read path resolves to, network, working directory (docs/RELIABILITY.md, \"What a box sees\")")
	run := c.RunE
	c.RunE = func(c *cobra.Command, args []string) error {
		if bot == "" {
			return run(c, args)
		}
		if err := botpath.ValidName(bot); err != nil {
			return bad("--bot: %v", err)
		}
		return doctorBot(e, bot)
	}
	return c
}

// doctorBot prints what bot name's box sees, computed as its start
// computes it (registry.Box, procrun.Sandbox.View); a box the sandbox
// would refuse is an error saying why.
func doctorBot(e env, name string) error {
	exe, _ := os.Executable()
	reg, err := registry.New(registry.Config{Finder: botpath.Default(os.Getenv(botpath.EnvVar), exe)})
	if err != nil {
		return err
	}
	defer reg.Close()
	b, err := reg.Box(name)
	if err != nil {
		return err
	}
	w := e.stdout
	kind := "plugin"
	if b.Kind == botpath.Manifest {
		kind = "engine, manifest " + b.Path
	}
	fmt.Fprintf(w, "bot %s: %s\n  program: %s\nsandbox: %s\n", name, kind, b.Exe, procrun.SandboxDetect())
	v, err := b.View()
	if err != nil {
		return fmt.Errorf("bot %s: its box is refused: %w", name, err)
	}
	fmt.Fprintln(w, "box sees:")
	for _, l := range v.Lines() {
		fmt.Fprintln(w, "  "+l)
	}
	for _, p := range b.Outside {
		fmt.Fprintf(w, "not in its box: %s (its command names it; add it to the manifest's read to let the engine see it)\n", p)
	}
	return nil
}
