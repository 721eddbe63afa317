package gtp

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

var parseSeeds = []string{
	"", "#", "12", "3 play x 4", "quit\r\n", "\tgenmove\to # c", "007 a", "99999999999999999999 x",
	"a\x00b\x7f c", "pl\xffay \xc3", "a\nb", "  1   2   3  ", "\u00a0", "-1 x",
}

func FuzzParseLine(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, ok := ParseLine(line)
		if !ok {
			if !reflect.DeepEqual(c, Command{}) {
				t.Fatalf("ParseLine(%q) = %#v, false; want the zero Command", line, c)
			}
			return
		}
		if c.Name == "" && !c.HasID {
			t.Fatalf("ParseLine(%q) = %#v: neither name nor id", line, c)
		}
		if c.Args != nil && len(c.Args) == 0 {
			t.Fatalf("ParseLine(%q): empty non-nil Args", line)
		}
		for _, tok := range append([]string{c.Name}, c.Args...) {
			if strings.ContainsAny(tok, " \t\r\n#\x00\x7f") {
				t.Fatalf("ParseLine(%q): token %q not preprocessed", line, tok)
			}
		}
		s := c.String()
		again, ok := ParseLine(s)
		if !ok || !reflect.DeepEqual(again, c) {
			t.Fatalf("ParseLine(%q) = %#v, but ParseLine(%q) = %#v, %v", line, c, s, again, ok)
		}
		if c.Name != "" {
			var b strings.Builder
			if err := WriteCommand(&b, c); err != nil {
				t.Fatalf("WriteCommand(%#v) = %v", c, err)
			}
		}
	})
}

func FuzzReader(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("1 a\r\n\n# x\n2 b\n\x00\n12\nquit"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		lines := bytes.Count(data, []byte("\n")) + 1
		for n := 0; ; n++ {
			if n > lines {
				t.Fatalf("more than %d results from %d lines", n, lines)
			}
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("Next: %v", err) // no line of a fuzz input is that long
			}
			if again, ok := ParseLine(c.String()); !ok || !reflect.DeepEqual(again, c) {
				t.Fatalf("Next = %#v, but ParseLine(%q) = %#v, %v", c, c.String(), again, ok)
			}
		}
	})
}

func FuzzResponseReader(f *testing.F) {
	for _, s := range []string{
		"=7 ok\n\n", "= D4\r\n\r\n", "?3 unknown command\n\n", "=\n\n", "= \n A B\n1 . x\n\n",
		"hello\n= x\n\n", "=1 ok", "=99999999999999999999 a\n\n", "\n\n=\n\n?\n\n", "=5x\n\n=  y\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewResponseReader(bytes.NewReader(data))
		lines := bytes.Count(data, []byte("\n")) + 1
		for n := 0; ; n++ {
			if n > lines {
				t.Fatalf("more than %d results from %d lines", n, lines)
			}
			resp, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				continue // each error consumes at least one line or is sticky
			}
			// Framing the answer again must give it back unchanged.
			var b bytes.Buffer
			w := NewWriter(&b)
			c := Command{ID: resp.ID, HasID: resp.HasID}
			if resp.OK {
				err = w.Success(c, resp.Text)
			} else {
				err = w.Failure(c, resp.Text)
			}
			if err != nil {
				t.Fatal(err)
			}
			again, err := NewResponseReader(&b).Next()
			if err != nil || !reflect.DeepEqual(again, resp) {
				t.Fatalf("answer %#v framed as %q reads back as %#v, %v", resp, b.String(), again, err)
			}
		}
	})
}
