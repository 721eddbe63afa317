package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/botpath"
	"github.com/kinrow/kinrow/host/gtpfront"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/registry"
	"github.com/kinrow/kinrow/host/termsafe"
)

// exitUsage is the exit status for bad command-line input.
const exitUsage = 2

// exitError carries a subcommand's exit status through cobra; the
// subcommand has said why already.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// env is what every subcommand runs with.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
}

// fail prints "kinrow CMD: MSG" on stderr and returns the exit status.
func (e env) fail(c *cobra.Command, code int, err error) error {
	fmt.Fprintf(e.stderr, "%s: %s\n", c.CommandPath(), termsafe.Printable(err.Error()))
	return exitError(code)
}

// bad is a usageError saying why.
func bad(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Ctrl-C, SIGTERM and SIGHUP (the terminal closed) end every
	// subcommand the same way: games and bots stopped, summaries printed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	e := env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	// Installed as pbrain-kinrow or pbrain-kinrow-NAME (make copies the
	// binary so), kinrow is a Gomocup brain playing the default bot or NAME.
	var root *cobra.Command
	if bot, ok := brainOfExecutable(os.Args[0]); ok {
		root = brainCommand(e, brainPrefix, bot)
	} else {
		root = rootCommand(e)
	}
	kinrowErrors(e, root)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout) // --help on stdout
	root.SetErr(stderr)
	c, err := root.ExecuteContextC(ctx)
	var code exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	}
	// Flags cobra could not read, or an unknown subcommand.
	fmt.Fprintf(stderr, "%s: %v (%s --help lists what is accepted)\n", c.CommandPath(), err, c.CommandPath())
	return exitUsage
}

// rootCommand is kinrow: the text protocol on stdin/stdout, and the
// subcommands.
func rootCommand(e env) *cobra.Command {
	root := serveCommand(e, "kinrow")
	root.Short = "the k-in-a-row host"
	root.Long = `kinrow: the k-in-a-row host. Without a subcommand (or with serve) it speaks
the text protocol on stdin/stdout (docs/PROTOCOL.md).`
	root.Version = version()
	root.SetVersionTemplate("kinrow {{.Version}}\n")
	root.AddCommand(serveCommand(e, "serve"), matchCommand(e), mergeCommand(e), solveCommand(e),
		brainCommand(e, "pbrain", ""), exportCommand(e), importCommand(e), viewCommand(e), ratingsCommand(e),
		javaManifestCommand(e), doctorCommand(e), botsCommand(e), keyCommand(e),
		newBookCmd(), newOpeningsCmd(),
		&cobra.Command{Use: "version", Short: "print the version", Args: cobra.NoArgs,
			Run: func(c *cobra.Command, _ []string) { fmt.Fprintln(e.stdout, "kinrow", version()) }})
	return root
}

// newCommand is a subcommand with kinrow's conventions: errors and usage
// printed by the subcommand itself, flags anywhere among the arguments.
func newCommand(use, short, long string, args cobra.PositionalArgs, run func(c *cobra.Command, args []string) error) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Long: long, Args: args, RunE: run,
		SilenceErrors: true, SilenceUsage: true}
}

// serveCommand is kinrow [serve].
func serveCommand(e env, use string) *cobra.Command {
	var hf botflags.Host
	var rulesText, bot string
	var movetime = referee.DefaultMoveTime
	c := newCommand(use, "speak the text protocol on stdin/stdout (docs/PROTOCOL.md)", "", cobra.NoArgs,
		func(c *cobra.Command, _ []string) error {
			rules, err := engine.ParseRules(rulesText)
			if err != nil {
				return bad("--rules: %v", err)
			}
			if bot != "" {
				if err := botpath.ValidName(bot); err != nil {
					return bad("--bot: %v", err)
				}
			}
			log, loader, err := startLoader(&hf, e.stderr)
			if err != nil {
				return err
			}
			defer loader.Close()
			// Ctrl-C, SIGTERM or SIGHUP: stop every bot (whole process
			// groups) and leave, even while the session waits on stdin.
			done := make(chan struct{})
			defer close(done)
			go func() {
				select {
				case <-e.ctx.Done():
					log.Warn("interrupted: stopping bots")
					loader.Close()
					os.Exit(130)
				case <-done:
				}
			}()
			if onTerminal(e.stdin) && onTerminal(e.stdout) {
				// A person at a terminal gets a greeting; a GTP controller
				// (pipes) sees nothing it did not ask for.
				fmt.Fprintf(e.stderr, "kinrow %s: %s. Type help for the commands, quit to leave.\n", version(), rules)
			}
			s := gtpfront.New(gtpfront.Config{Loader: loader, Rules: rules, DefaultBot: bot, Grace: hf.Grace,
				MoveTime: movetime, Logger: log, Version: version()})
			err = s.Serve(e.ctx, e.stdin, e.stdout)
			if err != nil && !errors.Is(err, context.Canceled) {
				log.Error("session ended", "error", err)
				return exitError(1)
			}
			return nil
		})
	fs := c.Flags()
	hf.AddBots(fs, true)
	fs.StringVar(&rulesText, "rules", "connect4", "the game at start: "+engine.RulesSyntax)
	fs.StringVar(&bot, "bot", "", "default bot for a side with none loaded (default: the strongest installed that plays the rules)")
	fs.DurationVar(&movetime, "movetime", movetime, "time per move (kinrow-movetime changes it)")
	return c
}

// startLoader makes the logger (on stderr) and the bot registry of hf; a
// bad --log-level is a usageError.
func startLoader(hf *botflags.Host, stderr io.Writer) (hclog.Logger, *registry.Registry, error) {
	log, err := hf.Logger(stderr)
	if err != nil {
		return nil, nil, usageError{err}
	}
	loader, err := hf.Loader(log)
	return log, loader, err
}

// onTerminal reports whether f is a terminal (not a pipe or a file).
func onTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// version is the module version of the build, or "dev".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "0.1.0-dev"
}

// usageError marks bad command-line input (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// kinrowErrors makes c and its subcommands report errors alike (env.fail):
// "kinrow CMD: why" on stderr, exit status 2 for a usageError, 1 for any
// other; an exitError has been said already and keeps its status.
func kinrowErrors(e env, c *cobra.Command) *cobra.Command {
	if run := c.RunE; run != nil {
		c.RunE = func(c *cobra.Command, args []string) error {
			err := run(c, args)
			var u usageError
			var code exitError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &code): // said already
				return err
			case errors.As(err, &u):
				return e.fail(c, exitUsage, u.err)
			}
			return e.fail(c, 1, err)
		}
	}
	for _, sub := range c.Commands() {
		kinrowErrors(e, sub)
	}
	return c
}
