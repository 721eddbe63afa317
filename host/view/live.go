package view

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/hashicorp/go-hclog"
)

// StartLive serves the viewer with a live hub on addr (kinrow match
// --view): it prints the page's address on w and serves until ctx ends.
// Games the hub ends join the page's replay list.
func StartLive(ctx context.Context, addr string, log hclog.Logger, w io.Writer) (*Hub, error) {
	ln, err := Listen(ctx, addr, log)
	if err != nil {
		return nil, err
	}
	hub := NewHub()
	srv := New(Config{Hub: hub, Logger: log, Hosts: ListenNames(addr)})
	fmt.Fprintf(w, "kinrow: watch the match at http://%s/\n", ln.Addr())
	go func() {
		if err := srv.Serve(ctx, ln); err != nil {
			log.Error("viewer stopped", "error", err)
		}
	}()
	return hub, nil
}

// ListenNames returns the host name of a listen address, when it is a
// name and not an IP address: the page answers to it besides the address
// itself and localhost (against DNS rebinding).
func ListenNames(addr string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" || net.ParseIP(host) != nil {
		return nil
	}
	return []string{host}
}
