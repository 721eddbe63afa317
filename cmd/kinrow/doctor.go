package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/containflags"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/registry"
)

// doctorCommand is kinrow doctor: how bots are contained on this machine.
func doctorCommand(e env) *cobra.Command {
	return withDoctorBot(e, newCommand("doctor", "say how bots are contained on this machine (docs/RELIABILITY.md)", "", cobra.NoArgs,
		func(*cobra.Command, []string) error {
			c, w := procrun.Detect(), e.stdout
			fmt.Fprintf(w, "kinrow %s\ncontainment: %s\n", version(), c.Kind)
			if c.Where != "" {
				fmt.Fprintln(w, "  cgroup parent:", c.Where)
			}
			mem := map[bool]string{true: c.Memory, false: "none"}[c.Memory != ""]
			fmt.Fprintf(w, "  suspend the bot and all it started: %s\n  kill the bot and all it started:    %s\n"+
				"  CPU time accounted:                 %s\n  memory cap by:                      %s\n", yesNo(c.Freeze), yesNo(c.KillAll), yesNo(c.CPU), mem)
			if c.Why != "" {
				fmt.Fprintln(w, "  no cgroup because:", c.Why)
			}
			exe, _ := os.Executable()
			sb := procrun.SandboxDetect()
			fmt.Fprintf(w, "sandbox: %s\n", sb)
			fmt.Fprintln(w, "limits (per bot, with all it starts; the defaults, which flags change):")
			for _, l := range containflags.Limits(containflags.DefaultSettings(), c, sb) {
				fmt.Fprintf(w, "  %-15s %s\n", l.Name+":", strings.TrimPrefix(l.String(), l.Name+": "))
			}
			fmt.Fprintf(w, "bot directories: %v\n", botpath.Default(os.Getenv(botpath.EnvVar), exe).Dirs)
			return nil
		}))
}

func yesNo(b bool) string { return map[bool]string{true: "yes", false: "no"}[b] }

// botsCommand is kinrow bots lock.
func botsCommand(e env) *cobra.Command {
	bots := &cobra.Command{Use: "bots", Short: "manage the installed bots", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return bad("want a subcommand: kinrow bots lock") }}
	bots.AddCommand(newCommand("lock", "write the bots' SHA-256 lock file (docs/RELIABILITY.md)",
		"Writes "+registry.LockFile+" beside the bots found on $"+botpath.EnvVar+" and beside kinrow.", cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			return botflags.WriteLocks(e.stdout)
		}))
	return bots
}
