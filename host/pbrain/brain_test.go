package pbrain

import (
	"bufio"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee/refereetest"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// TestTranscripts replays the sessions of testdata/*.txt.
func TestTranscripts(t *testing.T) {
	for _, name := range []string{"testdata/session.txt"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			loader := &fakeLoader{}
			s := newSession(t, Config{Loader: loader, Version: "test"})
			sc := bufio.NewScanner(f)
			for n := 1; sc.Scan(); n++ {
				line := sc.Text()
				switch {
				case strings.HasPrefix(line, "> "):
					s.send(line[2:])
				case strings.HasPrefix(line, "< "):
					if got := s.answer(); got != line[2:] {
						t.Fatalf("%s:%d: answer %q, want %q", name, n, got, line[2:])
					}
				case strings.HasPrefix(line, "<~ "):
					if got := s.answer(); !strings.Contains(got, line[3:]) {
						t.Fatalf("%s:%d: answer %q, want one containing %q", name, n, got, line[3:])
					}
				}
			}
			select { // the transcript ends with END
			case err := <-s.done:
				if err != nil {
					t.Fatalf("Serve after END = %v", err)
				}
				s.done <- nil
			case <-time.After(time.Second):
				t.Fatal("Serve did not return within a second of END")
			}
			loader.mu.Lock()
			closed := loader.closed
			loader.mu.Unlock()
			if !closed {
				t.Error("the loader was not closed after END")
			}
			for i := 0; i < loader.count(); i++ {
				if p := loader.player(i); !p.Killed() {
					t.Errorf("bot %d still running after END", i)
				}
			}
		})
	}
}

// TestCoordinatesReachTheBot checks the mapping through a whole BOARD: the
// bot's board holds the stones at kinrow's vertices, colours in order.
func TestCoordinatesReachTheBot(t *testing.T) {
	loader := &fakeLoader{}
	s := newSession(t, Config{Loader: loader})
	s.send("START 15", "BOARD", "0,0,2", "14,14,1", "7,7,2", "DONE")
	if got := s.answer(); got != "OK" {
		t.Fatalf("START: %q", got)
	}
	if got := s.answer(); got != "0,14" {
		t.Fatalf("BOARD: %q, want 0,14 (a1)", got)
	}
	r := engine.Rules{Kind: engine.MNK, Rows: 15, Cols: 15, K: 5}
	got := r.FormatMoveList(loader.player(-1).Moves())
	// Opponent (x) a15, brain (o) p1, opponent h8, then the brain's answer a1.
	if want := "a15 p1 h8 a1"; got != want {
		t.Errorf("the bot's board: %q, want %q", got, want)
	}
}

// TestHungBotAnswersInTime: bots that never answer (honouring only the
// context, as a plugin call does), fail, or whose start hangs: the brain
// answers every move by the limit, with the bot's best move so far when it
// reported one, else a move next to the stones, and a fresh bot plays on.
func TestHungBotAnswersInTime(t *testing.T) {
	hang := func(ctx context.Context, _ *engine.Position) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}
	fail := func(context.Context, *engine.Position) (string, error) { return "", errors.New("out of cheese") }
	near := []string{"6,6", "7,6", "8,6", "6,7", "8,7", "6,8", "7,8", "8,8"}
	tests := []struct {
		name   string
		loader *fakeLoader
		want   []string // acceptable answers to TURN 7,7; then TURN 0,0 and TURN 14,14 must be answered
	}{
		{"genmove hangs", &fakeLoader{make: func(n int) *refereetest.Player {
			if n == 0 {
				return &refereetest.Player{Answer: hang}
			}
			return &refereetest.Player{}
		}}, near},
		{"genmove fails, then starts hang", &fakeLoader{
			make: func(n int) *refereetest.Player {
				if n == 0 {
					return &refereetest.Player{Answer: fail}
				}
				return &refereetest.Player{}
			},
			loadDelay: func(n int) time.Duration {
				if n == 1 {
					return 400 * time.Millisecond
				}
				return 0
			}}, near},
		{"best move so far", &fakeLoader{
			make: func(int) *refereetest.Player {
				return &refereetest.Player{Answer: hang, Reports: []botapi.Progress{
					{Depth: 1, BestMove: "zz99"}, {Depth: 2, Score: 5, Nodes: 10, BestMove: "c3", PV: []string{"c3", "d4"}}}}
			}}, []string{"2,12"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t, Config{Loader: tt.loader, Margin: 100 * time.Millisecond})
			s.send("START 15")
			if got := s.answer(); got != "OK" {
				t.Fatalf("START: %q", got)
			}
			s.send("INFO timeout_turn 300")
			for i, turn := range []string{"TURN 7,7", "TURN 0,0", "TURN 14,14"} {
				start := time.Now()
				s.send(turn)
				got := s.answer()
				if took := time.Since(start); took > 300*time.Millisecond {
					t.Errorf("%s answered after %v; the limit is 300 ms", turn, took)
				}
				if _, err := gomocup.ParsePoint(got); err != nil {
					t.Fatalf("%s: %q", turn, got)
				}
				if i == 0 && !slices.Contains(tt.want, got) {
					t.Errorf("%s: %q, want one of %v", turn, got, tt.want)
				}
			}
		})
	}
	// The progress of the last test reached the manager as MESSAGE lines.
}

// TestProgressMessages: each report is one MESSAGE line with the moves in
// Gomocup coordinates, before the answer.
func TestProgressMessages(t *testing.T) {
	loader := &fakeLoader{make: func(int) *refereetest.Player {
		return &refereetest.Player{Reports: []botapi.Progress{
			{Depth: 3, Score: -7, Nodes: 1234, BestMove: "h8", PV: []string{"h8", "j9"}}}}
	}}
	s := newSession(t, Config{Loader: loader})
	s.send("START 15", "BEGIN")
	s.answer()
	if got := s.answer(); got != "0,14" {
		t.Fatalf("BEGIN: %q", got)
	}
	want := []string{"MESSAGE depth 3 score -7 nodes 1234 best 7,7 pv 7,7 8,6"}
	if !slices.Equal(s.msgs, want) {
		t.Errorf("progress lines %q, want %q", s.msgs, want)
	}
}

// TestInfoRule: INFO rule 1 and 4 make the game standard gomoku and renju,
// given before START or after it (before the first move); a configured bot
// that does not declare the variant is refused, naming what it plays.
func TestInfoRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  engine.Line
	}{
		{"rule 1 before START", []string{"INFO rule 1", "START 15"}, engine.Exact},
		{"rule 4 before START", []string{"INFO rule 4", "START 15"}, engine.Renju},
		{"rule 4 after START", []string{"START 15", "INFO rule 4"}, engine.Renju},
		{"rule 0", []string{"INFO rule 0", "START 15"}, engine.Freestyle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loader := &fakeLoader{}
			s := newSession(t, Config{Loader: loader, Version: "test"})
			for _, l := range tc.lines {
				s.send(l)
				if strings.HasPrefix(l, "START") {
					if got := s.answer(); got != "OK" {
						t.Fatalf("%s: %q", l, got)
					}
				}
			}
			s.send("BEGIN")
			if got := s.answer(); !strings.Contains(got, ",") {
				t.Fatalf("BEGIN: %q, want a move", got)
			}
			p := loader.player(-1)
			setups := p.Setups()
			r := setups[len(setups)-1].Rules
			if r.Line != tc.want || r.Rows != 15 || r.Cols != 15 {
				t.Errorf("the bot plays %s, want the line rule %s", r, tc.want)
			}
			s.send("END")
		})
	}
	t.Run("bot without the variant", func(t *testing.T) {
		loader := &fakeLoader{info: botapi.Info{Kinds: []string{"connectx", "mnk"}}}
		s := newSession(t, Config{Loader: loader, Version: "test", Bot: "fake"})
		s.send("INFO rule 4")
		s.send("START 15")
		if got := s.answer(); !strings.Contains(got, "ERROR START: bot fake does not play mnk:15x15x5:renju (INFO rule 4): it plays connectx, mnk") {
			t.Errorf("START: %q", got)
		}
		s.send("INFO rule 1")
		s.send("START 15")
		if got := s.answer(); !strings.Contains(got, "does not play mnk:15x15x5:exact (INFO rule 1)") {
			t.Errorf("START: %q", got)
		}
		s.send("INFO rule 0")
		s.send("START 15")
		if got := s.answer(); got != "OK" {
			t.Errorf("START under rule 0: %q", got)
		}
		s.send("END")
	})
}
