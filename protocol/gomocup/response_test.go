package gomocup

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseResponse(t *testing.T) {
	tests := []struct {
		line string
		want Response
	}{
		{"OK", Response{Kind: ReplyOK}},
		{"ok - everything is good\r", Response{Kind: ReplyOK, Text: "- everything is good"}},
		{"ERROR unsupported size", Response{Kind: ReplyError, Text: "unsupported size"}},
		{"UNKNOWN what is HELLO?", Response{Kind: ReplyUnknown, Text: "what is HELLO?"}},
		{"MESSAGE depth 7 eval +12", Response{Kind: ReplyMessage, Text: "depth 7 eval +12"}},
		{"DEBUG nodes 1000", Response{Kind: ReplyDebug, Text: "nodes 1000"}},
		{"SUGGEST 10,10", Response{Kind: ReplySuggest, Point: Point{10, 10}}},
		{"11,10", Response{Kind: ReplyMove, Point: Point{11, 10}}},
		{"11, 10", Response{Kind: ReplyMove, Point: Point{11, 10}}},
		{"7,7 8,7 9,9", Response{Kind: ReplyMoves, Points: []Point{{7, 7}, {8, 7}, {9, 9}}}},
		{"8,8 8 ,6", Response{Kind: ReplyMoves, Points: []Point{{8, 8}, {8, 6}}}},
		{"SWAP", Response{Kind: ReplySwap}},
		{`name="SomeBrain", version="1.0", author="Nymand", country="USA"`, Response{Kind: ReplyAbout, About: []AboutField{
			{"name", "SomeBrain"}, {"version", "1.0"}, {"author", "Nymand"}, {"country", "USA"}}}},
		{`name="a, b = c",version=2`, Response{Kind: ReplyAbout, About: []AboutField{{"name", "a, b = c"}, {"version", "2"}}}},
	}
	for _, tt := range tests {
		got, err := ParseResponse(tt.line)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseResponse(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
}

func TestParseResponseErrors(t *testing.T) {
	for _, line := range []string{"", "hello", "10", "10,x", "1,2,3", "SUGGEST", "SUGGEST a", `name="x`, `name="x" y`, `="x"`, "SWAP 1"} {
		if r, err := ParseResponse(line); err == nil {
			t.Errorf("ParseResponse(%q) = %+v; want an error", line, r)
		} else if !strings.Contains(err.Error(), "want") && !strings.Contains(err.Error(), "accepted") && !strings.Contains(err.Error(), "closing") && !strings.Contains(err.Error(), "number") {
			t.Errorf("ParseResponse(%q) = %v: the error does not say what is accepted", line, err)
		}
	}
}

func TestResponseString(t *testing.T) {
	tests := []struct {
		r    Response
		want string
	}{
		{OK(), "OK"},
		{Error("unsupported rule %d", 4), "ERROR unsupported rule 4"},
		{Unknown("HELLO"), "UNKNOWN HELLO"},
		{Message("line one\nline two\r"), "MESSAGE line one line two"},
		{Debug("x"), "DEBUG x"},
		{Move(Point{3, 4}), "3,4"},
		{Response{Kind: ReplyMoves, Points: []Point{{1, 2}, {3, 4}}}, "1,2 3,4"},
		{Response{Kind: ReplySuggest, Point: Point{1, 1}}, "SUGGEST 1,1"},
		{Response{Kind: ReplySwap}, "SWAP"},
		{Response{Kind: ReplyAbout, About: []AboutField{{"name", `kin"row`}, {"version", "1"}}}, `name="kin'row", version="1"`},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%+v.String() = %q; want %q", tt.r, got, tt.want)
		}
		var b strings.Builder
		if err := WriteResponse(&b, tt.r); err != nil || b.String() != tt.want+"\n" {
			t.Errorf("WriteResponse(%+v) = %q, %v", tt.r, b.String(), err)
		}
	}
	about := Response{Kind: ReplyAbout, About: []AboutField{{"name", "kinrow"}}}
	if about.Get("NAME") != "kinrow" || about.Get("author") != "" {
		t.Errorf("Get: %q, %q", about.Get("NAME"), about.Get("author"))
	}
}

func TestReplyTo(t *testing.T) {
	_, unknown := ParseCommand("HELLO")
	_, bad := ParseCommand("TURN x")
	if r := ReplyTo(unknown); r.Kind != ReplyUnknown || !strings.Contains(r.Text, "HELLO") || strings.HasPrefix(r.Text, "gomocup:") {
		t.Errorf("ReplyTo(unknown) = %+v", r)
	}
	if r := ReplyTo(bad); r.Kind != ReplyError || !strings.Contains(r.Text, "TURN X,Y") {
		t.Errorf("ReplyTo(bad) = %+v", r)
	}
	if r := ReplyTo(errors.New("x")); r.Kind != ReplyError {
		t.Errorf("ReplyTo(other) = %+v", r)
	}
}

func TestWriterConcurrent(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	done := make(chan struct{})
	for i := 0; i < 4; i++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 50; j++ {
				if err := w.Response(Message("progress line")); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if err := w.Command(Command{Kind: CmdEnd}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "END\r\n"), "\n")
	if len(lines) != 201 || lines[200] != "" {
		t.Fatalf("got %d lines", len(lines))
	}
	for _, l := range lines[:200] {
		if l != "MESSAGE progress line" {
			t.Fatalf("interleaved line %q", l)
		}
	}
}
