package procrun

import (
	"strings"
	"testing"
)

func TestStderrLogCaps(t *testing.T) {
	var kept int64
	var lines int
	var dropB, dropL int64
	s := NewStderrLog(func(l string) { kept += int64(len(l)) + 1; lines++ }, func(b, l int64) { dropB += b; dropL += l })
	line := strings.Repeat("x", 99) + "\n"
	flood := strings.Repeat(line, 11<<20/100) // 11 MB of stderr in one move
	s.Copy(strings.NewReader(flood))
	if kept > StderrCap || kept < StderrCap-200 {
		t.Errorf("kept %d bytes, want about %d", kept, StderrCap)
	}
	if kept+dropB != int64(len(flood)) || int64(lines)+dropL != int64(strings.Count(flood, "\n")) {
		t.Errorf("kept %d + dropped %d bytes of %d; %d + %d lines", kept, dropB, len(flood), lines, dropL)
	}
}

func TestStderrLogResetAndLongLine(t *testing.T) {
	var got []string
	var dropB int64
	s := NewStderrLog(func(l string) { got = append(got, l) }, func(b, l int64) { dropB += b })
	s.Copy(strings.NewReader("a\n" + strings.Repeat("y", 10000) + "\nb\n"))
	if len(got) != 3 || got[0] != "a" || len(got[1]) != maxLine || got[2] != "b" || dropB != 10001-maxLine {
		t.Errorf("lines %d (%q…), dropped %d", len(got), got[0], dropB)
	}
}
