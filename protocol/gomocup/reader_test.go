package gomocup

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// step is what one Reader.Next call returns: a command, or an error that
// contains a text (and wraps ErrUnknownCommand when unknown is set).
type step struct {
	c       Command
	err     string
	unknown bool
}

func TestReader(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []step
	}{
		{"the protocol's example", "START 20\r\nINFO timeout_turn 1000\r\nBEGIN\r\nTURN 10,10\r\nEND\r\n", []step{
			{c: Command{Kind: CmdStart, Width: 20, Height: 20}},
			{c: Command{Kind: CmdInfo, Key: "timeout_turn", Value: "1000"}},
			{c: Command{Kind: CmdBegin}}, {c: Command{Kind: CmdTurn, Point: Point{10, 10}}}, {c: Command{Kind: CmdEnd}}}},
		{"LF, CR, blank lines, no final line end", "BEGIN\n\n  \r\rRESTART\rABOUT", []step{
			{c: Command{Kind: CmdBegin}}, {c: Command{Kind: CmdRestart}}, {c: Command{Kind: CmdAbout}}}},
		{"board with its three fields", "BOARD\r\n10,10,1\r\n10,11,2\r\n\r\n11,11,3\r\nDONE\r\nEND\r\n", []step{
			{c: Command{Kind: CmdBoard, Stones: []Stone{{Point{10, 10}, FieldOwn}, {Point{10, 11}, FieldOpponent}, {Point{11, 11}, FieldContinuous}}}},
			{c: Command{Kind: CmdEnd}}}},
		{"empty board, lower case", "board\ndone\n", []step{{c: Command{Kind: CmdBoard}}}},
		{"a bad board line refuses the block, read to DONE", "BOARD\n1,1,1\n1,1,4\nx\n2,2,2\nDONE\nBEGIN\n", []step{
			{err: `line 3: board line "1,1,4": field "4"`}, {c: Command{Kind: CmdBegin}}}},
		{"a command before DONE", "BOARD\n1,1,1\nEND\n", []step{{err: "BOARD: END came before DONE"}, {c: Command{Kind: CmdEnd}}}},
		{"input ends inside a board", "BOARD\n1,1,1\n", []step{{err: "input ended before DONE"}}},
		{"swap2board", "SWAP2BOARD\n7,7\n8,7\nDONE\nSWAP2BOARD\nDONE\n", []step{
			{c: Command{Kind: CmdSwap2Board, Stones: []Stone{{Point: Point{7, 7}}, {Point: Point{8, 7}}}}},
			{c: Command{Kind: CmdSwap2Board}}}},
		{"unknown and malformed lines, then going on", "HELLO\nTURN 1\nSTART\n\x00\x01\nTURN 1,1\n", []step{
			{err: `line 1: "HELLO": unknown command`, unknown: true}, {err: "line 2"}, {err: "START: want"},
			{c: Command{Kind: CmdTurn, Point: Point{1, 1}}}}},
		{"a line too long", "BEGIN\n" + strings.Repeat("x", MaxLineBytes+10) + "\nEND\n", []step{
			{c: Command{Kind: CmdBegin}}, {err: "line too long"}, {c: Command{Kind: CmdEnd}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.input))
			for i, w := range tt.want {
				c, err := r.Next()
				if w.err != "" {
					if err == nil || !strings.Contains(err.Error(), w.err) || errors.Is(err, ErrUnknownCommand) != w.unknown {
						t.Fatalf("step %d: Next() = %+v, %v; want an error with %q (unknown %v)", i, c, err, w.err, w.unknown)
					}
					continue
				}
				if err != nil || !reflect.DeepEqual(c, w.c) {
					t.Fatalf("step %d: Next() = %+v, %v; want %+v", i, c, err, w.c)
				}
			}
			if c, err := r.Next(); err != io.EOF {
				t.Fatalf("after the last step: Next() = %+v, %v; want io.EOF", c, err)
			}
		})
	}
}

func TestReaderLongLineError(t *testing.T) {
	r := NewReader(strings.NewReader(strings.Repeat("y", MaxLineBytes*3)))
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("Next() = %v; want ErrLineTooLong", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("Next() = %v; want io.EOF", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("pipe broke") }

func TestReaderReadError(t *testing.T) {
	r := NewReader(failingReader{})
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); err == nil || err == io.EOF || !strings.Contains(err.Error(), "pipe broke") {
			t.Fatalf("Next() = %v; want the read error", err)
		}
	}
}

func TestResponseReader(t *testing.T) {
	in := "MESSAGE thinking\rDEBUG d\r\n10,10\nhello\nOK\r\n\r\n" + `name="x", version="1"`
	r := NewResponseReader(strings.NewReader(in))
	want := []Response{{Kind: ReplyMessage, Text: "thinking"}, {Kind: ReplyDebug, Text: "d"}, Move(Point{10, 10})}
	for _, w := range want {
		if got, err := r.Next(); err != nil || !reflect.DeepEqual(got, w) {
			t.Fatalf("Next() = %+v, %v; want %+v", got, err, w)
		}
	}
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("Next() on hello = %v; want an error on line 4", err)
	}
	if got, err := r.Next(); err != nil || got.Kind != ReplyOK {
		t.Fatalf("Next() = %+v, %v; want OK", got, err)
	}
	if got, err := r.Next(); err != nil || got.Get("name") != "x" || r.Line() != 6 {
		t.Fatalf("Next() = %+v, %v (line %d); want the ABOUT answer on line 6", got, err, r.Line())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("Next() = %v; want io.EOF", err)
	}
}
