package progress

import (
	"strings"
	"testing"
	"time"
)

// Without a bar, lines come when due (every update with every 0; with a
// long every only the last, done == total); a bar writes no line. With a
// bar, a log line first clears the bar's line; after Finish it does not.
func TestReporter(t *testing.T) {
	type reporterCase struct {
		bar   bool
		every time.Duration
		want  string // the lines of three updates, without a bar
	}
	cases := []reporterCase{{false, 0, "1/3\n2/3\n3/3\n"}, {false, time.Hour, "3/3\n"}, {true, 0, ""}}
	for _, tc := range cases {
		var out strings.Builder
		r := New(&out, "things", tc.bar, tc.every)
		for done := 1; done <= 3; done++ {
			r.Update(done, 3, func() string { return string(rune('0'+done)) + "/3" })
		}
		if !tc.bar && out.String() != tc.want {
			t.Errorf("bar %v every %v: wrote %q, want %q", tc.bar, tc.every, out.String(), tc.want)
		}
		out.Reset()
		r.Line("line")
		r.Log().Write([]byte("log\n"))
		got := out.String()
		if tc.bar != strings.HasPrefix(got, "\r\x1b[K") || !strings.HasSuffix(got, "log\n") || tc.bar == strings.Contains(got, "line\n") {
			t.Errorf("bar %v: line and log written as %q", tc.bar, got)
		}
		r.Finish()
		out.Reset()
		r.Log().Write([]byte("after\n"))
		if out.String() != "after\n" {
			t.Errorf("bar %v: after Finish, a log line is written as %q", tc.bar, out.String())
		}
	}
}
