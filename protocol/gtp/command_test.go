package gtp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Command
		ok   bool
	}{
		{"plain", "play x 4", Command{Name: "play", Args: []string{"x", "4"}}, true},
		{"id", "3 play x 4", Command{ID: 3, HasID: true, Name: "play", Args: []string{"x", "4"}}, true},
		{"id zero", "0 name", Command{HasID: true, Name: "name"}, true},
		{"id leading zeros", "007 boardsize 9", Command{ID: 7, HasID: true, Name: "boardsize", Args: []string{"9"}}, true},
		{"no args is nil", "quit", Command{Name: "quit"}, true},
		{"id only", "12", Command{ID: 12, HasID: true}, true},
		{"id only with comment", "12 # nothing", Command{ID: 12, HasID: true}, true},
		{"id overflow is a name", "99999999999999999999 x", Command{Name: "99999999999999999999", Args: []string{"x"}}, true},
		{"signed is a name", "-1 x", Command{Name: "-1", Args: []string{"x"}}, true},
		{"plus is a name", "+1 x", Command{Name: "+1", Args: []string{"x"}}, true},
		{"digits then name", "1a x", Command{Name: "1a", Args: []string{"x"}}, true},
		{"second numeric token is the name", "1 2 3", Command{ID: 1, HasID: true, Name: "2", Args: []string{"3"}}, true},
		{"comment", "genmove x # think hard", Command{Name: "genmove", Args: []string{"x"}}, true},
		{"comment glued", "genmove x#o", Command{Name: "genmove", Args: []string{"x"}}, true},
		{"hash only", "#", Command{}, false},
		{"comment only", "# a comment", Command{}, false},
		{"comment after spaces", "   # a comment", Command{}, false},
		{"empty", "", Command{}, false},
		{"spaces", "     ", Command{}, false},
		{"tabs and spaces", " \t \t ", Command{}, false},
		{"tabs separate", "play\tx\t\t4", Command{Name: "play", Args: []string{"x", "4"}}, true},
		{"runs of spaces", "  5   play   x    4  ", Command{ID: 5, HasID: true, Name: "play", Args: []string{"x", "4"}}, true},
		{"CRLF", "2 name\r\n", Command{ID: 2, HasID: true, Name: "name"}, true},
		{"LF", "name\n", Command{Name: "name"}, true},
		{"CR inside token dropped", "na\rme", Command{Name: "name"}, true},
		{"CR only", "\r", Command{}, false},
		{"control chars dropped", "\x00pl\x01ay\x1b x\x7f 4\x1f", Command{Name: "play", Args: []string{"x", "4"}}, true},
		{"control chars only", "\x00\x01\x02\x7f", Command{}, false},
		{"control char does not separate", "a\x00b", Command{Name: "ab"}, true},
		{"vertical tab and form feed dropped", "a\vb\fc", Command{Name: "abc"}, true},
		{"only first line", "a b\nc d", Command{Name: "a", Args: []string{"b"}}, true},
		{"empty first line", "\nc d", Command{}, false},
		{"comment cut before control chars matter", "a #\x00b", Command{Name: "a"}, true},
		{"utf8 kept", "play x é4 ☃", Command{Name: "play", Args: []string{"x", "é4", "☃"}}, true},
		{"invalid utf8 kept", "pl\xffay \xc3", Command{Name: "pl\xffay", Args: []string{"\xc3"}}, true},
		{"nbsp is not a separator", "a\u00a0b", Command{Name: "a\u00a0b"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseLine(tt.line)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLine(%q) = %#v, %v; want %#v, %v", tt.line, got, ok, tt.want, tt.ok)
			}
			if !ok {
				return
			}
			again, ok := ParseLine(got.String())
			if !ok || !reflect.DeepEqual(again, got) {
				t.Errorf("ParseLine(%q) = %#v, %v; want %#v", got.String(), again, ok, got)
			}
		})
	}
}

func TestCommandString(t *testing.T) {
	tests := []struct {
		c    Command
		want string
	}{
		{Command{ID: 3, HasID: true, Name: "play", Args: []string{"x", "4"}}, "3 play x 4"},
		{Command{Name: "play", Args: []string{"x", "4"}}, "play x 4"},
		{Command{ID: 0, HasID: true, Name: "quit"}, "0 quit"},
		{Command{ID: 12, HasID: true}, "12"},
		{Command{Name: "quit"}, "quit"},
		{Command{}, ""},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestWriteCommand(t *testing.T) {
	tests := []struct {
		c    Command
		want string // "" means invalid
	}{
		{Command{ID: 3, HasID: true, Name: "play", Args: []string{"x", "4"}}, "3 play x 4\n"},
		{Command{Name: "quit"}, "quit\n"},
		{Command{Name: "play", Args: []string{"é", "\xff"}}, "play é \xff\n"},
		{Command{ID: -1, HasID: true, Name: "quit"}, ""},
		{Command{ID: 1, HasID: true}, ""},
		{Command{Name: "12"}, ""},
		{Command{ID: 1, HasID: true, Name: "2", Args: []string{"3"}}, "1 2 3\n"},
		{Command{Name: "99999999999999999999"}, "99999999999999999999\n"},
		{Command{Name: "a b"}, ""},
		{Command{Name: "a#"}, ""},
		{Command{Name: "a", Args: []string{""}}, ""},
		{Command{Name: "a", Args: []string{"x\ny"}}, ""},
		{Command{Name: "a", Args: []string{"x\ty"}}, ""},
		{Command{Name: "a", Args: []string{"x\x7f"}}, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		err := WriteCommand(&b, tt.c)
		if tt.want == "" {
			if !errors.Is(err, ErrInvalidCommand) || b.Len() != 0 {
				t.Errorf("WriteCommand(%#v) wrote %q, err %v; want ErrInvalidCommand and nothing written", tt.c, b.String(), err)
			}
			continue
		}
		if err != nil || b.String() != tt.want {
			t.Errorf("WriteCommand(%#v) wrote %q, err %v; want %q", tt.c, b.String(), err, tt.want)
		}
		got, ok := ParseLine(b.String())
		if !ok || !reflect.DeepEqual(got, tt.c) {
			t.Errorf("ParseLine(%q) = %#v, want %#v", b.String(), got, tt.c)
		}
	}
}

func TestWriteCommandError(t *testing.T) {
	err := WriteCommand(failWriter{}, Command{Name: "quit"})
	if !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want wrapping errBoom", err)
	}
}

var errBoom = errors.New("boom")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errBoom }
