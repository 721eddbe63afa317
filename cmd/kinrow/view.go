package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/botflags"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/termsafe"
	"github.com/kinrow/kinrow/host/view"
)

const viewLong = `Serves a web page (offline, on this machine unless --listen says otherwise)
that replays the games of records files move by move. Every record is
verified (signed by this host's key or one given with --trust, each game id
once in its file): a file with one that is not is refused (exit 1) unless
--skip-invalid leaves such records out. See docs/VIEWER.md and
docs/MATCHES.md.`

// viewCommand is kinrow view. It starts no bot: of the host flags it takes
// only --log-level.
func viewCommand(e env) *cobra.Command {
	var hf botflags.Host
	var listen string
	var t trustFlags
	c := newCommand("view [RECORDS.jsonl ...]", "replay records in a local web page (docs/VIEWER.md)", viewLong, cobra.ArbitraryArgs,
		func(c *cobra.Command, files []string) error {
			log, err := hf.Logger(e.stderr)
			if err != nil {
				return usageError{err}
			}
			keys, err := t.trusted()
			if err != nil {
				return err
			}
			srv := view.New(view.Config{Logger: log, Hosts: view.ListenNames(listen), SkipInvalid: t.skipInvalid,
				Verifier: func() *record.Verifier { return record.NewVerifier(keys, t.allowUnsigned) }})
			for _, path := range files {
				// A file a record of which no trusted referee vouches
				// for is refused; any other bad file or line is
				// reported here and on the page, the good games served.
				err := srv.AddFile(path)
				var refused *view.RefusedError
				if errors.As(err, &refused) {
					return err
				}
				if err != nil {
					log.Error("records not (all) loaded", "error", termsafe.Printable(err.Error()))
				}
			}
			unsignedNote(e.stderr, c, srv.Unsigned())
			ln, err := view.Listen(e.ctx, listen, log)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "kinrow view: http://%s/\n", ln.Addr())
			return srv.Serve(e.ctx, ln)
		})
	hf.AddLog(c.Flags())
	t.register(c.Flags(), true)
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
