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

// Client is a minimal GTP controller for tools, tests and the host's
// kinrow-protocol engines: it sends one command at a time with an
// incrementing id and reads the matching answer.
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
// By default an answer without an id is taken for the command waiting
// (lenient toward engines that do not echo ids, though GTP says they
// must); RequireIDs makes the client number its commands from a random
// start and refuse any answer that does not carry its command's id, and
// Authenticate offers the engine a key to sign its answers with
// (AnswerKey), after which only signed answers are taken. Either way a
// refused answer fails the call wrapping ErrUnexpectedAnswer.
//
// A Client becomes unusable, and every later Do fails, after a call is
// cancelled through its context or fails for any reason other than a
// failure answer (write or read error, malformed, overlong or unexpected
// answer, id mismatch, an answer not signed): the stream may then be out
// of step. After a cancellation a goroutine may stay blocked in the
// underlying Write until the engine reads or the pipe is closed, and the
// reading goroutine stays blocked in Read until the engine writes or its
// output is closed; close the pipes (or kill the engine) to release them.
type Client struct {
	w    io.Writer
	rr   *ResponseReader
	sem  chan struct{} // holds the right to use the fields below
	id   int           // id of the last command sent
	dead error         // non-nil once the client is unusable
	max  int           // bound on an answer's text
	// strict: an answer must carry its command's id (RequireIDs).
	strict bool
	// signed: an answer must carry its tag under key (Authenticate).
	signed bool
	key    AnswerKey

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

// RequireIDs makes the client number its commands from a random start
// (crypto/rand, below 2^30; then one more per command) instead of 1, and
// refuse an answer that carries no id or another command's id: a party
// that writes on the engine's output without seeing the commands cannot
// guess the id an answer must carry. Call it before the first Do.
func (c *Client) RequireIDs() error {
	start, err := randomStart()
	if err != nil {
		return err
	}
	c.sem <- struct{}{}
	defer func() { <-c.sem }()
	c.id, c.strict = start-1, true
	return nil
}

// Authenticate sends the command "name args..." (kinrow's is "kinrow-key
// KEY") offering the engine key to sign its answers with, and returns its
// answer and whether the engine signs. An engine that signs answers this
// command with its tag under key (AnswerKey.Tag) as the id, and from then
// on the client takes an answer only if its id is its tag: any other
// answer, with or without an id, fails the call wrapping both
// ErrUnexpectedAnswer and ErrUnsignedAnswer. An engine that answers with
// the command's own id (an unknown command, most often) does not sign;
// the client goes on as before and the answer is returned with signed
// false. Errors are Do's.
func (c *Client) Authenticate(ctx context.Context, key AnswerKey, name string, args ...string) (resp Response, signed bool, err error) {
	return c.do(ctx, &key, name, args)
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

// Do sends the command "id name args..." with the next id (1, 2, ..., or
// from a random start after RequireIDs) and returns its answer. A failure
// answer is returned with a nil error; use Response.Err to turn it into
// one. If ctx is done before the answer arrives, Do returns ctx.Err() and
// the client becomes unusable. An invalid name or argument is reported
// (wrapping ErrInvalidCommand) without sending anything and leaves the
// client usable.
func (c *Client) Do(ctx context.Context, name string, args ...string) (Response, error) {
	resp, _, err := c.do(ctx, nil, name, args)
	return resp, err
}

// do is Do, and Authenticate when offer is not nil.
func (c *Client) do(ctx context.Context, offer *AnswerKey, name string, args []string) (Response, bool, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return Response{}, false, ctx.Err()
	}
	defer func() { <-c.sem }()
	resp, err := c.send(ctx, offer, name, args)
	return resp, c.signed, err
}

func (c *Client) send(ctx context.Context, offer *AnswerKey, name string, args []string) (Response, error) {
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
			if err == nil && len(res.resp.Text) > c.max {
				err = fmt.Errorf("%w: the answer has %d bytes (limit %d)", ErrResponseTooLong, len(res.resp.Text), c.max)
			}
			if err == nil {
				err = c.match(cmd, res.resp, offer)
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

// match checks that resp answers cmd: its signature when the client takes
// signed answers, else its id (a missing one only where ids are optional).
// offer is the key being offered with cmd (Authenticate): the answer may
// then carry either its tag under it, which makes the client take signed
// answers from now on, or cmd's id.
func (c *Client) match(cmd Command, resp Response, offer *AnswerKey) error {
	if offer != nil && !c.signed && resp.HasID && resp.ID == offer.tagOf(cmd, resp) {
		c.signed, c.key = true, *offer
		return nil
	}
	switch {
	case c.signed:
		if !resp.HasID {
			return fmt.Errorf("%w: %w: an answer without an id to command %d (%.40q)", ErrUnexpectedAnswer, ErrUnsignedAnswer, cmd.ID, resp.Text)
		}
		if want := c.key.tagOf(cmd, resp); resp.ID != want {
			return fmt.Errorf("%w: %w: answer id %d is not the tag of command %d and of this answer (%.40q)", ErrUnexpectedAnswer, ErrUnsignedAnswer, resp.ID, cmd.ID, resp.Text)
		}
	case !resp.HasID:
		if c.strict {
			return fmt.Errorf("%w: an answer without an id to command %d (%.40q)", ErrUnexpectedAnswer, cmd.ID, resp.Text)
		}
	case resp.ID != cmd.ID:
		return fmt.Errorf("%w: answer id %d does not match command id %d", ErrUnexpectedAnswer, resp.ID, cmd.ID)
	}
	return nil
}
