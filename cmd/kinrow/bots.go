package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/registry"
)

// containFlags are what every host subcommand holds its bots to:
// --bot-memory, --bot-env, --verify-bots, --bot-suspend, --bot-mtls,
// --sandbox, --bot-network.
type containFlags struct {
	memory  memoryFlag
	env     envFlag
	verify  bool
	suspend suspendFlag
	mtls    bool
	sandbox sandboxFlag
	network bool
}

func (c *containFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.memory, "bot-memory", "cap each bot's memory with its children's, e.g. 350M or 2GiB (over it the bot forfeits: memory)")
	fs.Var(&c.env, "bot-env", "pass host environment variable NAME through to the bots (repeatable; bots get only PATH, HOME, TMPDIR, LANG and KINROW_* otherwise)")
	fs.BoolVar(&c.verify, "verify-bots", false, "refuse a bot without a matching SHA-256 in "+registry.LockFile+" beside it (kinrow bots lock)")
	fs.BoolVar(&c.mtls, "bot-mtls", false, "talk to plugin bots over mutual TLS (a certificate per bot; docs/RELIABILITY.md)")
	fs.Var(&c.sandbox, "sandbox", "run each bot in a sandbox: auto (the default: the full sandbox where the kernel allows it, else what it can, logged), require (refuse a bot without the full sandbox) or off (docs/RELIABILITY.md)")
	fs.BoolVar(&c.network, "bot-network", false, "let sandboxed bots use the host's network (otherwise they have a loopback of their own only)")
	fs.Var(&c.suspend, "bot-suspend", "suspend plugin bots, with everything they started, from their answer to their next request (no thinking on the opponent's time); --bot-suspend=NAME,NAME for those bots only")
}

func (c *containFlags) containment() pluginbot.Containment {
	return pluginbot.Containment{Memory: int64(c.memory), Env: c.env, SuspendAll: c.suspend.all, Suspend: c.suspend.names, MTLS: c.mtls,
		Sandbox: c.sandbox.mode, Network: c.network}
}

// sandboxFlag is --sandbox=auto|require|off.
type sandboxFlag struct{ mode procrun.SandboxMode }

func (s *sandboxFlag) String() string {
	if s == nil {
		return "auto"
	}
	return s.mode.String()
}

func (s *sandboxFlag) Set(v string) error {
	m, err := procrun.ParseSandboxMode(v)
	if err != nil {
		return err
	}
	s.mode = m
	return nil
}

// suspendFlag is --bot-suspend: alone (or =true) every plugin bot,
// =NAME,NAME those bots, =false none.
type suspendFlag struct {
	all   bool
	names []string
}

func (s *suspendFlag) String() string {
	if s == nil {
		return ""
	}
	if s.all {
		return "true"
	}
	return strings.Join(s.names, ",")
}

// IsBoolFlag lets --bot-suspend stand alone.
func (s *suspendFlag) IsBoolFlag() bool { return true }

func (s *suspendFlag) Set(v string) error {
	switch v {
	case "true", "1":
		s.all = true
		return nil
	case "false", "0":
		s.all, s.names = false, nil
		return nil
	}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n == "" || strings.ContainsAny(n, "/\\ =") {
			return fmt.Errorf("--bot-suspend %q: want no value (every plugin bot), true, false or bot names separated by commas", v)
		}
		s.names = append(s.names, n)
	}
	return nil
}

// memoryFlag is a size in bytes read by procrun.ParseSize.
type memoryFlag int64

func (m *memoryFlag) String() string {
	if *m == 0 {
		return ""
	}
	return procrun.FormatSize(int64(*m))
}

func (m *memoryFlag) Set(s string) error {
	n, err := procrun.ParseSize(s)
	if err != nil {
		return err
	}
	*m = memoryFlag(n)
	return nil
}

// envFlag lists environment variable names.
type envFlag []string

func (e *envFlag) String() string { return fmt.Sprint([]string(*e)) }

func (e *envFlag) Set(s string) error {
	if err := procrun.CheckEnvName(s); err != nil {
		return err
	}
	*e = append(*e, s)
	return nil
}

// logContainment says at start-up how the bots are held.
func logContainment(log hclog.Logger, mode procrun.SandboxMode) {
	sb := "off (--sandbox=off)"
	if mode != procrun.SandboxOff {
		sb = procrun.SandboxDetect().String()
	}
	log.Info("bot containment", "in force", procrun.Detect().String(), "sandbox", sb)
}

// checkSandbox refuses to go on under --sandbox=require without the full
// sandbox, saying what is missing.
func checkSandbox(mode procrun.SandboxMode) error {
	if mode != procrun.SandboxRequire {
		return nil
	}
	if st := procrun.SandboxDetect(); !st.Full {
		return fmt.Errorf("--sandbox=require: no bot can start here: the sandbox is %s", st)
	}
	return nil
}

// doctorCmd prints how bots are contained on this machine.
func doctorCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	c := procrun.Detect()
	fmt.Fprintln(stdout, "kinrow", version())
	fmt.Fprintln(stdout, "containment:", c.Kind)
	if c.Where != "" {
		fmt.Fprintln(stdout, "  cgroup parent:", c.Where)
	}
	fmt.Fprintln(stdout, "  suspend the bot and all it started:", yesNo(c.Freeze))
	fmt.Fprintln(stdout, "  kill the bot and all it started:   ", yesNo(c.KillAll))
	fmt.Fprintln(stdout, "  CPU time accounted:                ", yesNo(c.CPU))
	mem := c.Memory
	if mem == "" {
		mem = "none"
	}
	fmt.Fprintln(stdout, "  memory cap by:                     ", mem)
	if c.Why != "" {
		fmt.Fprintln(stdout, "  no cgroup because:", c.Why)
	}
	sb := procrun.SandboxDetect()
	fmt.Fprintln(stdout, "sandbox:", sb.String())
	exe, _ := os.Executable()
	f := botpath.Default(os.Getenv(botpath.EnvVar), exe)
	fmt.Fprintln(stdout, "bot directories:", f.Dirs)
	return 0
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// botsCmd is `kinrow bots lock`: write the lock file of the bots' SHA-256.
func botsCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "lock" {
		fmt.Fprintln(stderr, "usage: kinrow bots lock   (writes "+registry.LockFile+" beside the bots found on $"+botpath.EnvVar+" and beside kinrow)")
		return exitUsage
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "kinrow bots lock: unexpected argument %q\n", args[1])
		return exitUsage
	}
	exe, _ := os.Executable()
	written, err := registry.WriteLocks(botpath.Default(os.Getenv(botpath.EnvVar), exe))
	for _, w := range written {
		fmt.Fprintln(stdout, "wrote", w)
	}
	if err != nil {
		fmt.Fprintln(stderr, "kinrow bots lock:", err)
		return 1
	}
	if len(written) == 0 {
		fmt.Fprintln(stderr, "kinrow bots lock: no bots found")
		return 1
	}
	return 0
}
