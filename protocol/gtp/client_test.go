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

// scriptedEngine answers each command read from in with the next of
// answers (raw text, written whole); it returns when in is closed.
func scriptedEngine(t *testing.T, answers ...string) *Client {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	ansR, ansW := io.Pipe()
	go func() {
		defer ansW.Close()
		r := NewReader(cmdR)
		for _, a := range answers {
			if _, err := r.Next(); err != nil {
				return
			}
			if _, err := io.WriteString(ansW, a); err != nil {
				return
			}
		}
		for {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmdW.Close()
		ansR.Close()
	})
	return NewClient(cmdW, ansR)
}

func TestClientStrayAnswer(t *testing.T) {
	// The engine answers its first command twice: the second answer is
	// there before the next command is sent, and fails that command.
	c := scriptedEngine(t, "=1 4\n\n= 5\n\n", "=2\n\n")
	if r, err := c.Do(context.Background(), "genmove", "x"); err != nil || r.Text != "4" {
		t.Fatalf("Do = %#v, %v", r, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.qmu.Lock()
		n := len(c.queue)
		c.qmu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	_, err := c.Do(context.Background(), "play", "o", "5")
	if !errors.Is(err, ErrUnexpectedAnswer) || !strings.Contains(err.Error(), `"5" came before the command was sent`) {
		t.Fatalf("Do after a stray answer: err = %v, want ErrUnexpectedAnswer", err)
	}
	if _, err := c.Do(context.Background(), "play", "o", "5"); err == nil || !strings.Contains(err.Error(), "unusable") {
		t.Fatalf("Do after a stray answer: err = %v, want an unusable client", err)
	}
}

func TestClientMaxAnswer(t *testing.T) {
	line := strings.Repeat("y", 50<<10)
	tests := []struct {
		name, answer string
		max          int
		want         error
	}{
		{"a line over MaxLineBytes", "=1 " + strings.Repeat("x", MaxLineBytes+10) + "\n\n", 0, ErrLineTooLong},
		{"two lines over the default bound", "=1 " + line + "\n" + line + "\n\n", 0, ErrResponseTooLong},
		{"over a bound set lower", "=1 12345678901\n\n", 10, ErrResponseTooLong},
		{"at the bound", "=1 1234567890\n\n", 10, nil},
		{"over MaxResponseBytes", "=1 " + strings.Repeat(line+"\n", 90) + "\n", MaxResponseBytes * 2, ErrResponseTooLong},
	}
	for _, tc := range tests {
		c := scriptedEngine(t, tc.answer)
		c.SetMaxAnswer(tc.max)
		r, err := c.Do(context.Background(), "genmove", "x")
		if tc.want == nil {
			if err != nil || len(r.Text) != tc.max {
				t.Errorf("%s: Do = %d bytes, %v", tc.name, len(r.Text), err)
			}
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%s: the error quotes %d bytes", tc.name, len(err.Error()))
		}
	}
}
