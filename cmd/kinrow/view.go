package main

import (
	"context"
	"fmt"
	"io"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/view"
)

const viewLong = `Serves a web page (offline, on this machine unless --listen says otherwise)
that replays the games of records files move by move. See docs/VIEWER.md.`

// viewCommand is kinrow view. It starts no bot: of the host flags it takes
// only --log-level.
func viewCommand(e env) *cobra.Command {
	var hf botflags.Host
	var listen string
	c := newCommand("view [RECORDS.jsonl ...]", "replay records in a local web page (docs/VIEWER.md)", viewLong, cobra.ArbitraryArgs,
		func(c *cobra.Command, files []string) error {
			log, err := hf.Logger(e.stderr)
			if err != nil {
				return usageError{err}
			}
			srv := view.New(view.Config{Logger: log, Hosts: view.ListenNames(listen)})
			for _, path := range files {
				// A bad file or line is reported here and on the page;
				// the good games are served.
				if err := srv.AddFile(path); err != nil {
					log.Error("records not (all) loaded", "error", err)
				}
			}
			ln, err := view.Listen(e.ctx, listen, log)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "kinrow view: http://%s/\n", ln.Addr())
			return srv.Serve(e.ctx, ln)
		})
	hf.AddLog(c.Flags())
	c.Flags().StringVar(&listen, "listen", view.DefaultAddr, "address to serve the page on (HOST:PORT; port 0 picks a free one)")
	return c
}

// watchMatch serves the viewer with a live hub on addr and hooks it to
// cfg's callbacks (kinrow match --view).
func watchMatch(ctx context.Context, addr string, cfg *match.Config, log hclog.Logger, stderr io.Writer) error {
	hub, err := view.StartLive(ctx, addr, log, stderr)
	if err != nil {
		return fmt.Errorf("--view %s: %w", addr, err)
	}
	match.Watch(hub, cfg)
	return nil
}
