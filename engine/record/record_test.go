package record

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/golden"
)

func TestRecordGolden(t *testing.T) {
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	rules := engine.Connect4()
	r := New(rules, Players{X: "alphabeta", O: "random"}, start)
	for i, col := range []engine.Move{3, 3, 4, 2} {
		r.Add(rules, col, engine.Color(i&1), time.Duration(i)*time.Millisecond)
	}
	r.Finish(engine.XWins, ReasonForfeit, ForfeitTimeout, "o (random) timed out after 1000 ms", start.Add(time.Second))
	line, err := r.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "forfeit.json"), append(line, '\n'))
	if r.Digits != "4453" {
		t.Errorf("digits = %q", r.Digits)
	}
	if got := r.Summary(); got != "X+ forfeit: o (random) timed out after 1000 ms" {
		t.Errorf("summary = %q", got)
	}
	back, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if back.Winner == nil || *back.Winner != "alphabeta" || len(back.Moves) != 4 || back.Moves[1].MS != 1 {
		t.Errorf("parsed back: %+v", back)
	}
}

func TestDrawHasNullWinner(t *testing.T) {
	r := New(engine.Connect4(), Players{X: "a", O: "b"}, time.Unix(0, 0))
	r.Finish(engine.Draw, ReasonDraw, "", "", time.Unix(1, 0))
	line, _ := r.MarshalLine()
	if !strings.Contains(string(line), `"winner":null`) || !strings.Contains(string(line), `"result":"0"`) {
		t.Errorf("draw record: %s", line)
	}
	r.Reopen()
	if r.Summary() != "open" {
		t.Errorf("reopened summary = %q", r.Summary())
	}
}

func TestParseRejectsBadRecords(t *testing.T) {
	for _, line := range []string{
		`not json`,
		`{"rules":"chess","moves":[]}`,
		`{"rules":"connect4","moves":[{"move":"9"}]}`,
		`{"rules":"connect4","moves":[{"move":"1"},{"move":"1"},{"move":"1"},{"move":"1"},{"move":"1"},{"move":"1"},{"move":"1"}]}`,
	} {
		if _, err := Parse([]byte(line)); err == nil {
			t.Errorf("Parse(%s) accepted a bad record", line)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"rules":"connect4","moves":[{"move":"4"}]}`))
	f.Add([]byte(`{"rules":"gomoku","moves":[{"move":"h8"},{"move":"h8"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Parse(b)
		if err != nil {
			return
		}
		if _, err := r.MarshalLine(); err != nil {
			t.Fatal(err)
		}
	})
}
