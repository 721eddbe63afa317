package sdk

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/kinrow/kinrow/protocol/botapi"
)

// LogEnv is the environment variable that sets the bot's log level: trace,
// debug, info (the default), warn, error or off.
const LogEnv = "KINROW_LOG"

// parentPoll is how often Serve checks that the host is still alive.
const parentPoll = 500 * time.Millisecond

var logger = sync.OnceValue(func() hclog.Logger {
	level := hclog.LevelFromString(os.Getenv(LogEnv))
	if level == hclog.NoLevel {
		level = hclog.Info
	}
	return hclog.New(&hclog.LoggerOptions{
		Level:      level,
		Output:     os.Stderr, // the real stderr: go-plugin swaps os.Stderr later
		JSONFormat: true,
	})
})

// Logger returns the bot's logger: hclog JSON lines on stderr, which the
// host re-logs under the bot's name at the same level; the level comes from
// KINROW_LOG. Bots log through it, never to stdout.
func Logger() hclog.Logger { return logger() }

// Serve runs b as a kinrow bot plugin and never returns: it exits when the
// host shuts the bot down or dies. Call it from main. With -h or --help on
// the command line it prints b's description and options to stdout and
// exits 0; run without the host it explains that on stderr and exits 1.
//
// After the plugin handshake the bot must not write to stdout: go-plugin
// redirects os.Stdout then, but a write to file descriptor 1 would reach
// the host's plugin pipe.
func Serve(b Bot) {
	ServeAPI(Adapt(b, Logger()))
}

// ServeAPI is Serve for a bot written against the wire-level interface.
func ServeAPI(api botapi.Bot) {
	for _, arg := range os.Args[1:] {
		if arg == "-h" || arg == "--help" || arg == "-help" {
			info, err := api.Info(context.Background())
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			PrintHelp(os.Stdout, info)
			os.Exit(0)
		}
	}
	hs := botapi.Handshake()
	if os.Getenv(hs.MagicCookieKey) != hs.MagicCookieValue {
		fmt.Fprintf(os.Stderr, "%s is a kinrow bot: the kinrow host starts it (kinrow-load NAME); --help describes it\n", os.Args[0])
		os.Exit(1)
	}
	log := Logger()
	watchParent(log)
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  hs,
		VersionedPlugins: botapi.VersionedPluginSets(api),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return plugin.DefaultGRPCServer(append(opts, botapi.ServerOptions()...))
		},
		Logger: log,
	})
	// The host asked the bot to shut down (or the listener failed).
	os.Exit(0)
}

// watchParent exits the process if the host dies: the bot's parent changes
// (to init or a subreaper) when its parent exits.
func watchParent(log hclog.Logger) {
	ppid := os.Getppid()
	go func() {
		for range time.Tick(parentPoll) {
			if os.Getppid() != ppid {
				log.Warn("the host is gone; exiting", "host pid", ppid)
				os.Exit(1)
			}
		}
	}()
}

// PrintHelp writes a human-readable description of a bot and its options.
func PrintHelp(w io.Writer, info botapi.Info) {
	fmt.Fprintf(w, "%s %s", info.Name, info.Version)
	if info.Author != "" {
		fmt.Fprintf(w, " by %s", info.Author)
	}
	fmt.Fprintf(w, "\nA kinrow bot (strength %d) that plays %s.\n", info.Strength, describePlays(info))
	fmt.Fprintf(w, "The kinrow host starts it: kinrow-load COLOR %s [name=value ...]\n", info.Name)
	if len(info.Options) == 0 {
		fmt.Fprintln(w, "\nNo options.")
		return
	}
	fmt.Fprintln(w, "\nOptions:")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, o := range info.Options {
		kind := o.Type
		switch {
		case o.Type == botapi.OptionChoice:
			kind = strings.Join(o.Choices, "|")
		case o.Type == botapi.OptionInt && (o.Min != 0 || o.Max != 0):
			kind = fmt.Sprintf("int %d..%d", o.Min, o.Max)
		}
		def := ""
		if o.Default != "" {
			def = " (default " + o.Default + ")"
		}
		fmt.Fprintf(tw, "  %s=\t%s\t%s%s\n", o.Name, kind, o.Help, def)
	}
	tw.Flush()
}
