package gtp

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// Client is a minimal GTP controller for tools and tests: it sends one
// command at a time with an incrementing id and reads the matching answer.
// It is safe for concurrent use; calls are serialised.
//
// A Client becomes unusable, and every later Do fails, after a call is
// cancelled through its context or fails for any reason other than a
// failure answer (write or read error, malformed answer, id mismatch): the
// stream may then be out of step. After a cancellation a goroutine may stay
// blocked in the underlying Write or Read until the engine answers or the
// pipe is closed; close the pipe (or kill the engine) to release it.
type Client struct {
	w    io.Writer
	rr   *ResponseReader
	sem  chan struct{} // holds the right to use the fields below
	id   int           // id of the last command sent
	dead error         // non-nil once the client is unusable
}

type result struct {
	resp Response
	err  error
}

// NewClient returns a Client that writes commands to w (unbuffered: each
// command is one Write) and reads answers from r.
func NewClient(w io.Writer, r io.Reader) *Client {
	return &Client{w: w, rr: NewResponseReader(r), sem: make(chan struct{}, 1)}
}

// Do sends the command "id name args..." with the next id (1, 2, ...) and
// returns its answer. A failure answer is returned with a nil error; use
// Response.Err to turn it into one. If ctx is done before the answer
// arrives, Do returns ctx.Err() and the client becomes unusable. An invalid
// name or argument is reported (wrapping ErrInvalidCommand) without sending
// anything and leaves the client usable.
func (c *Client) Do(ctx context.Context, name string, args ...string) (Response, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return Response{}, ctx.Err()
	}
	defer func() { <-c.sem }()
	if c.dead != nil {
		return Response{}, c.dead
	}
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	cmd := Command{ID: c.id + 1, HasID: true, Name: name, Args: slices.Clone(args)}
	if err := cmd.validate(); err != nil {
		return Response{}, err
	}
	c.id++
	done := make(chan result, 1)
	go func(w io.Writer, rr *ResponseReader) {
		if err := WriteCommand(w, cmd); err != nil {
			done <- result{err: err}
			return
		}
		resp, err := rr.Next()
		done <- result{resp, err}
	}(c.w, c.rr)
	select {
	case res := <-done:
		err := res.err
		if err == nil && res.resp.HasID && res.resp.ID != cmd.ID {
			err = fmt.Errorf("gtp: answer id %d does not match command id %d", res.resp.ID, cmd.ID)
		}
		if err != nil {
			c.dead = fmt.Errorf("gtp: client unusable after failed command %q: %w", name, err)
			return Response{}, fmt.Errorf("gtp: command %q: %w", name, err)
		}
		return res.resp, nil
	case <-ctx.Done():
		c.dead = fmt.Errorf("gtp: client unusable after cancelled command %q: %w", name, ctx.Err())
		return Response{}, ctx.Err()
	}
}
