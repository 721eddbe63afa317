package gomocup

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

var seeds = []string{
	"START 20", "RECTSTART 30,20", "TURN 10,10", "BOARD", "INFO folder a  b", "INFO X\x01y", "TAKEBACK 1 , 2",
	"", "\x00", "turn\t1,1", "START 99999999", "10,10", "OK fine", "SUGGEST 1,1", `name="a,b", v=1`,
	"7,7 8,7 9,9", "SWAP", "ERROR \xff", "a=\"", "1,1,1",
}

// FuzzParseCommand: ParseCommand never panics, every error is a
// *SyntaxError, and a parsed command prints to a line that parses back to
// the same command.
func FuzzParseCommand(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseCommand(%q) error %v is not a *SyntaxError", line, err)
			}
			return
		}
		lines := c.Lines()
		again, err := ParseCommand(lines[0])
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("ParseCommand(%q) = %+v, but its line %q parses to %+v, %v", line, c, lines[0], again, err)
		}
		var b strings.Builder
		if err := WriteCommand(&b, c); err != nil {
			t.Fatalf("WriteCommand(%+v) = %v", c, err)
		}
	})
}

// FuzzParseResponse: ParseResponse never panics and round-trips.
func FuzzParseResponse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseResponse(line)
		if err != nil {
			return
		}
		s := r.String()
		if strings.ContainsAny(s, "\r\n") {
			t.Fatalf("%+v prints %q with a line break", r, s)
		}
		again, err := ParseResponse(s)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("ParseResponse(%q) = %+v, but %q parses to %+v, %v", line, r, s, again, err)
		}
	})
}

// FuzzReader: a Reader never panics or loops on any input, ends with io.EOF,
// and every command it returns can be written and read back.
func FuzzReader(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("BOARD\r\n1,1,1\r\n2,2,2\r\nDONE\r\nBOARD\nEND\nSWAP2BOARD\n3,3\nDONE"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		for n := 0; ; n++ {
			if n > len(data)+1 {
				t.Fatalf("more commands than bytes in %q", data)
			}
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				continue
			}
			var b bytes.Buffer
			if err := WriteCommand(&b, c); err != nil {
				t.Fatalf("WriteCommand(%+v) = %v", c, err)
			}
			again, err := ReadCommand(&b)
			if err != nil || !reflect.DeepEqual(again, c) {
				t.Fatalf("%+v written as %q reads back as %+v, %v", c, b.String(), again, err)
			}
		}
	})
}
