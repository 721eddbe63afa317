package gtp

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeEngine answers commands read from in on out: "echo" repeats its
// arguments, "hang" never answers, "wrongid" echoes a wrong id and anything
// else fails. It returns when in is closed.
func fakeEngine(in io.Reader, out io.Writer) {
	r, w := NewReader(in), NewWriter(out)
	for {
		c, err := r.Next()
		if err != nil {
			return
		}
		switch c.Name {
		case "echo":
			w.Success(c, strings.Join(c.Args, " "))
		case "hang":
		case "wrongid":
			c.ID += 100
			w.Success(c, "")
		default:
			w.Failure(c, "unknown command")
		}
	}
}

// newTestClient connects a Client to a fakeEngine; the pipes are closed at
// the end of the test.
func newTestClient(t *testing.T) *Client {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	ansR, ansW := io.Pipe()
	go func() {
		fakeEngine(cmdR, ansW)
		ansW.Close()
	}()
	t.Cleanup(func() {
		cmdW.Close()
		ansR.Close()
	})
	return NewClient(cmdW, ansR)
}

func TestClient(t *testing.T) {
	c := newTestClient(t)
	ctx := context.Background()
	resp, err := c.Do(ctx, "echo", "a", "b")
	if err != nil || resp != (Response{ID: 1, HasID: true, OK: true, Text: "a b"}) {
		t.Fatalf("Do = %#v, %v", resp, err)
	}
	resp, err = c.Do(ctx, "nope")
	if err != nil || resp.OK || resp.ID != 2 || resp.Err() == nil {
		t.Fatalf("Do = %#v, %v; want a failure answer with id 2 and nil error", resp, err)
	}
	if _, err := c.Do(ctx, "echo", "bad arg"); !errors.Is(err, ErrInvalidCommand) {
		t.Fatalf("Do with a space in an argument: err = %v, want ErrInvalidCommand", err)
	}
	resp, err = c.Do(ctx, "echo")
	if err != nil || resp != (Response{ID: 3, HasID: true, OK: true}) {
		t.Fatalf("Do after an invalid command = %#v, %v; want id 3", resp, err)
	}
}

func TestClientConcurrent(t *testing.T) {
	c := newTestClient(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				resp, err := c.Do(context.Background(), "echo", "hi")
				if err != nil || resp.Text != "hi" {
					t.Errorf("Do = %#v, %v", resp, err)
				}
			}
		})
	}
	wg.Wait()
	resp, err := c.Do(context.Background(), "echo")
	if err != nil || resp.ID != 81 {
		t.Errorf("Do = %#v, %v; want id 81", resp, err)
	}
}

func TestClientCancel(t *testing.T) {
	c := newTestClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := c.Do(ctx, "hang"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Do = %v, want DeadlineExceeded", err)
	}
	_, err := c.Do(context.Background(), "echo")
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "unusable") {
		t.Fatalf("Do after cancel: err = %v, want an unusable-client error", err)
	}
}

func TestClientCancelledBeforeStart(t *testing.T) {
	c := newTestClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Do(ctx, "echo"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Do = %v, want Canceled", err)
	}
}

func TestClientIDMismatch(t *testing.T) {
	c := newTestClient(t)
	if _, err := c.Do(context.Background(), "wrongid"); err == nil {
		t.Fatal("Do with a wrong answer id: no error")
	}
	if _, err := c.Do(context.Background(), "echo"); err == nil {
		t.Fatal("Do after an id mismatch: no error")
	}
}

func TestClientEngineGone(t *testing.T) {
	c := NewClient(io.Discard, strings.NewReader(""))
	if _, err := c.Do(context.Background(), "echo"); !errors.Is(err, io.EOF) {
		t.Fatalf("Do = %v, want io.EOF", err)
	}
}
