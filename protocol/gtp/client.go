package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// DefaultMaxAnswer is a Client's bound on the text of one answer (64 KiB),
// below the ResponseReader's MaxResponseBytes; see Client.SetMaxAnswer.
const DefaultMaxAnswer = 64 << 10

// ErrUnexpectedAnswer is wrapped by the error of a Client's call when the
// engine wrote an answer nobody asked for (a stray extra answer): it was
// waiting before the command was sent.
var ErrUnexpectedAnswer = errors.New("gtp: an answer nobody asked for")

// Client is a minimal GTP controller for tools and tests: it sends one
// command at a time with an incrementing id and reads the matching answer.
// It is safe for concurrent use; calls are serialised.
//
// The client reads the engine's answers ahead, from its first call on, so
// an answer that arrives when no command is waiting for one (a stray extra
// answer) is caught before the next command is sent: that call fails with
// ErrUnexpectedAnswer. An answer whose text is longer than the client's
// bound (DefaultMaxAnswer, see SetMaxAnswer), or with a line over
// MaxLineBytes, fails the call too, without the client holding more than
// MaxResponseBytes of it.
//
// A Client becomes unusable, and every later Do fails, after a call is
// cancelled through its context or fails for any reason other than a
// failure answer (write or read error, malformed, overlong or unexpected
// answer, id mismatch): the stream may then be out of step. After a
// cancellation a goroutine may stay blocked in the underlying Write until
// the engine reads or the pipe is closed, and the reading goroutine stays
// blocked in Read until the engine writes or its output is closed; close the
// pipes (or kill the engine) to release them.
type Client struct {
	w    io.Writer
	rr   *ResponseReader
	sem  chan struct{} // holds the right to use the fields below
	id   int           // id of the last command sent
	dead error         // non-nil once the client is unusable
	max  int           // bound on an answer's text

	readOnce sync.Once
	ready    chan struct{} // a token when queue is not empty
	qmu      sync.Mutex
	queue    []result // answers read and not yet taken; the reader stops after an error
}

type result struct {
	resp Response
	err  error
}

// NewClient returns a Client that writes commands to w (unbuffered: each
// command is one Write) and reads answers from r.
func NewClient(w io.Writer, r io.Reader) *Client {
	return &Client{w: w, rr: NewResponseReader(r), sem: make(chan struct{}, 1), max: DefaultMaxAnswer,
		ready: make(chan struct{}, 1)}
}

// SetMaxAnswer bounds the text of an answer at n bytes (at most
// MaxResponseBytes; n <= 0 restores DefaultMaxAnswer); a longer answer
// fails its call with an error wrapping ErrResponseTooLong. Call it before
// the first Do.
func (c *Client) SetMaxAnswer(n int) {
	if n <= 0 {
		n = DefaultMaxAnswer
	}
	c.max = min(n, MaxResponseBytes)
}

// read reads answers until the first error, queueing them for Do.
func (c *Client) read() {
	for {
		resp, err := c.rr.Next()
		c.qmu.Lock()
		c.queue = append(c.queue, result{resp, err})
		c.qmu.Unlock()
		select {
		case c.ready <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// take returns the oldest queued answer, if any.
func (c *Client) take() (result, bool) {
	c.qmu.Lock()
	defer c.qmu.Unlock()
	if len(c.queue) == 0 {
		return result{}, false
	}
	r := c.queue[0]
	c.queue = c.queue[1:]
	if len(c.queue) > 0 {
		select {
		case c.ready <- struct{}{}:
		default:
		}
	}
	return r, true
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
	c.readOnce.Do(func() { go c.read() })
	fail := func(err error) (Response, error) {
		c.dead = fmt.Errorf("gtp: client unusable after failed command %q: %w", name, err)
		return Response{}, fmt.Errorf("gtp: command %q: %w", name, err)
	}
	if stray, ok := c.take(); ok {
		if stray.err != nil {
			return fail(stray.err)
		}
		return fail(fmt.Errorf("%w: %.40q came before the command was sent", ErrUnexpectedAnswer, stray.resp.Text))
	}
	c.id++
	wrote := make(chan error, 1)
	go func(w io.Writer) { wrote <- WriteCommand(w, cmd) }(c.w)
	for {
		select {
		case err := <-wrote:
			if err != nil {
				return fail(err)
			}
			wrote = nil
			continue
		case <-c.ready:
			res, ok := c.take()
			if !ok {
				continue
			}
			err := res.err
			switch {
			case err != nil:
			case res.resp.HasID && res.resp.ID != cmd.ID:
				err = fmt.Errorf("gtp: answer id %d does not match command id %d", res.resp.ID, cmd.ID)
			case len(res.resp.Text) > c.max:
				err = fmt.Errorf("%w: the answer has %d bytes (limit %d)", ErrResponseTooLong, len(res.resp.Text), c.max)
			}
			if err != nil {
				return fail(err)
			}
			return res.resp, nil
		case <-ctx.Done():
			c.dead = fmt.Errorf("gtp: client unusable after cancelled command %q: %w", name, ctx.Err())
			return Response{}, ctx.Err()
		}
	}
}
