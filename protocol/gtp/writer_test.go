package gtp

import (
	"errors"
	"strings"
	"testing"
)

func TestWriter(t *testing.T) {
	id7 := Command{ID: 7, HasID: true, Name: "x"}
	noID := Command{Name: "x"}
	tests := []struct {
		name string
		ok   bool
		c    Command
		text string
		want string
	}{
		{"id echo", true, id7, "ok", "=7 ok\n\n"},
		{"no id", true, noID, "ok", "= ok\n\n"},
		{"id zero", true, Command{HasID: true}, "ok", "=0 ok\n\n"},
		{"negative id not echoed", true, Command{ID: -3, HasID: true}, "ok", "= ok\n\n"},
		{"id ignored without HasID", true, Command{ID: 9}, "", "=\n\n"},
		{"empty", true, noID, "", "=\n\n"},
		{"empty with id", true, id7, "", "=7\n\n"},
		{"only newlines", true, id7, "\n\r\n\n", "=7\n\n"},
		{"trailing newline trimmed", true, id7, "D4\n", "=7 D4\n\n"},
		{"trailing CRLFs trimmed", true, id7, "D4\r\n\r\n", "=7 D4\n\n"},
		{"multi-line", true, id7, "a\nb\nc", "=7 a\nb\nc\n\n"},
		{"empty lines become dots", true, id7, "a\n\nb\n\n\nc\n", "=7 a\n.\nb\n.\n.\nc\n\n"},
		{"CR-only line becomes dot", true, id7, "a\r\n\r\nb", "=7 a\r\n.\nb\n\n"},
		{"leading empty line kept", true, noID, "\n A B\n1 . .", "= \n A B\n1 . .\n\n"},
		{"leading spaces kept", true, noID, "  x", "=   x\n\n"},
		{"failure", false, id7, "unknown command", "?7 unknown command\n\n"},
		{"failure no id", false, noID, "syntax error", "? syntax error\n\n"},
		{"failure empty", false, noID, "", "?\n\n"},
		{"failure multi-line", false, id7, "bad\n\nvery bad\n", "?7 bad\n.\nvery bad\n\n"},
		{"invalid utf8 kept", true, noID, "\xff\xfe", "= \xff\xfe\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			w := NewWriter(&b)
			var err error
			if tt.ok {
				err = w.Success(tt.c, tt.text)
			} else {
				err = w.Failure(tt.c, tt.text)
			}
			if err != nil || b.String() != tt.want {
				t.Errorf("wrote %q, err %v; want %q", b.String(), err, tt.want)
			}
		})
	}
}

func TestWriterFlushesEveryAnswer(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	for i, want := range []string{"=1 a\n\n", "=1 a\n\n?2 b\n\n"} {
		var err error
		if i == 0 {
			err = w.Success(Command{ID: 1, HasID: true}, "a")
		} else {
			err = w.Failure(Command{ID: 2, HasID: true}, "b")
		}
		if err != nil || b.String() != want {
			t.Fatalf("after answer %d: %q, %v; want %q", i, b.String(), err, want)
		}
	}
}

func TestWriterError(t *testing.T) {
	w := NewWriter(failWriter{})
	if err := w.Success(Command{}, "x"); !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want wrapping errBoom", err)
	}
}
