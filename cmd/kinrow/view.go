package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/host/view"
)

const viewUsage = `Usage: kinrow view [--listen 127.0.0.1:8080] [RECORDS.jsonl ...]

Serves a web page that replays the games of the records files (as kinrow
match --out writes them): the list of games with filters, each game
stepped move by move (buttons or the arrow keys) with its move times, a
URL for every game and ply. Everything is in the binary: the page works
offline. It listens on this machine only unless --listen says otherwise.
Ctrl-C stops it. See docs/VIEWER.md.

Flags:
`

func viewCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, viewUsage); fs.PrintDefaults() }
	// The viewer starts no bot: of the host flags it takes only
	// --log-level (the bot flags were registered and ignored).
	var hf hostFlags
	all := flag.NewFlagSet("", flag.ContinueOnError)
	hf.register(all)
	logLevel := all.Lookup("log-level")
	fs.Var(logLevel.Value, logLevel.Name, logLevel.Usage)
	listen := fs.String("listen", view.DefaultAddr, "address to serve the page on (HOST:PORT; port 0 picks a free one)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	log, err := hf.logger(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow view:", err)
		return exitUsage
	}
	srv := view.New(view.Config{Logger: log, Hosts: listenNames(*listen)})
	for _, path := range fs.Args() {
		// A bad file or line is reported here and on the page; the
		// good games are served.
		if err := srv.AddFile(path); err != nil {
			log.Error("records not (all) loaded", "error", err)
		}
	}
	ln, err := view.Listen(ctx, *listen, log)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow view:", err)
		return 1
	}
	fmt.Fprintf(stdout, "kinrow view: http://%s/\n", ln.Addr())
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintln(stderr, "kinrow view:", err)
		return 1
	}
	return 0
}

// startLiveView serves the viewer with a live hub on addr, for kinrow match
// --view: it prints the page's address on w and serves until ctx ends. The
// match runner feeds the returned hub (GameStarted, Move, GameEnded,
// Summary; see docs/VIEWER.md); games it ends join the page's replay list.
func startLiveView(ctx context.Context, addr string, log hclog.Logger, w io.Writer) (*view.Hub, error) {
	ln, err := view.Listen(ctx, addr, log)
	if err != nil {
		return nil, err
	}
	hub := view.NewHub()
	srv := view.New(view.Config{Hub: hub, Logger: log, Hosts: listenNames(addr)})
	fmt.Fprintf(w, "kinrow: watch the match at http://%s/\n", ln.Addr())
	go func() {
		if err := srv.Serve(ctx, ln); err != nil {
			log.Error("viewer stopped", "error", err)
		}
	}()
	return hub, nil
}

// listenNames returns the host name of a listen address, when it is a
// name and not an IP address: the page answers to it besides the address
// itself and localhost (view.Config.Hosts; other names are refused
// against DNS rebinding).
func listenNames(addr string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" || net.ParseIP(host) != nil {
		return nil
	}
	return []string{host}
}
