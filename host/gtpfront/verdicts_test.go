package gtpfront

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// run sends one command line to s.
func run(s *Server, line string) (string, error) {
	f := strings.Fields(line)
	return s.Do(context.Background(), f[0], f[1:])
}

// mustRun sends command lines that must all succeed.
func mustRun(t *testing.T, s *Server, lines ...string) string {
	t.Helper()
	var out string
	for _, line := range lines {
		var err error
		if out, err = run(s, line); err != nil {
			t.Fatalf("%s: ? %v", line, err)
		}
	}
	return out
}

func newServer(rules string) (*Server, *fakeLoader) {
	r, err := engine.ParseRules(rules)
	if err != nil {
		panic(err)
	}
	l := &fakeLoader{}
	return New(Config{Loader: l, Rules: r, MoveTime: time.Second}), l
}

// NaN, infinities, negatives and times past the limit are refused with the
// accepted range, the clocks unchanged: the next genmove plays (time_left
// o nan 0 used to make it forfeit "timed out after -9223372036854 ms").
func TestBadTimesAreRefused(t *testing.T) {
	tests := []struct {
		cmd  string
		want string // "" = accepted
	}{
		{"time_left o nan 0", "time must be a number of seconds from 0 to 10000000, got \"nan\""},
		{"time_left o NaN 0", "from 0 to 10000000"},
		{"time_left o inf 0", "from 0 to 10000000"},
		{"time_left o -inf 0", "from 0 to 10000000"},
		{"time_left o -1 0", "from 0 to 10000000"},
		{"time_left o 1e400 0", "from 0 to 10000000"},
		{"time_left o 10000001 0", "from 0 to 10000000"},
		{"time_left o 9223372036.855 0", "from 0 to 10000000"},
		{"time_left o 30 -1", "stones must be a whole number from 0 to 1000000"},
		{"time_left o 30 99999999999999999999", "from 0 to 1000000"},
		{"time_left o 30 nan", "from 0 to 1000000"},
		{"time_settings nan 0 0", "main time must be a number of seconds from 0 to 10000000"},
		{"time_settings 0 inf 1", "byo-yomi time must be"},
		{"time_settings -5 0 0", "main time must be"},
		{"time_settings 1e300 0 0", "main time must be"},
		{"time_settings 60 10 -3", "byo-yomi stones must be a whole number from 0 to 1000000"},
		{"komi nan", "komi takes a finite number"},
		{"komi inf", "komi takes a finite number"},
		{"komi -Inf", "komi takes a finite number"},
		{"komi 1e999", "komi takes a finite number"},
		{"komi -6.5", ""},
		{"time_left o 10000000 0", ""},
		{"time_left o 0.5 0", ""},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			s, _ := newServer("connect4")
			defer s.Close()
			mustRun(t, s, "play x 4")
			before := s.Game().Budget(engine.O)
			_, err := run(s, tc.cmd)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v; want %q", err, tc.want)
				}
				if s.Game().Budget(engine.O) != before || s.Game().Clock().Timed() {
					t.Errorf("a refused time changed the clock: budget %v", s.Game().Budget(engine.O))
				}
			}
			if got := mustRun(t, s, "genmove o"); got == "resign" {
				t.Errorf("genmove after %s forfeited: %s", tc.cmd, mustRun(t, s, "kinrow-result"))
			}
		})
	}
}

// After the game ends, the loser's genmove answers resign, as a GTP engine
// signals a game it lost; the winner's (or either side's after a draw) is
// refused.
func TestGenmoveAfterTheEnd(t *testing.T) {
	s, _ := newServer("tictactoe")
	defer s.Close()
	// x: a1 b1 c1 wins; o: a2 b2.
	mustRun(t, s, "play b a1", "play w a2", "play b b1", "play w b2", "play b c1")
	if got := mustRun(t, s, "genmove w"); got != "resign" {
		t.Errorf("the loser's genmove = %q; want resign", got)
	}
	if got := mustRun(t, s, "genmove white"); got != "resign" {
		t.Errorf("the loser's second genmove = %q; want resign", got)
	}
	if _, err := run(s, "genmove b"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Errorf("the winner's genmove: %v", err)
	}
	if rec := s.Game().Record(); rec.Result != "X+" || rec.Reason != record.ReasonWin || len(rec.Moves) != 5 {
		t.Errorf("genmove after the end changed the record: %s", rec.Summary())
	}
	// A draw: nobody lost.
	mustRun(t, s, "clear_board")
	for _, m := range []string{"x b2", "o a1", "x c3", "o a3", "x a2", "o c2", "x b1", "o b3", "x c1"} {
		mustRun(t, s, "play "+m)
	}
	for _, c := range []string{"x", "o"} {
		if _, err := run(s, "genmove "+c); err == nil {
			t.Errorf("genmove %s after a draw answered", c)
		}
	}
}

// final_score answers in GTP's colours (x is black) when the controller
// names colours as GTP does, in kinrow's otherwise.
func TestFinalScoreColours(t *testing.T) {
	tests := []struct {
		name  string
		moves []string // tictactoe; the last command names the colour style
		want  string
	}{
		{"gtp colours, black wins", []string{"play b a1", "play w a2", "play b b1", "play w b2", "play b c1"}, "B+"},
		{"gtp colours, white wins", []string{"play black b2", "play white a1", "play black c3", "play white b1", "play black a3", "play white c1"}, "W+"},
		{"kinrow colours", []string{"play x a1", "play o a2", "play x b1", "play o b2", "play x c1"}, "X+"},
		{"kinrow colours, o wins", []string{"play x b2", "play o a1", "play x c3", "play o b1", "play x a3", "play o c1"}, "O+"},
		{"last spelling counts", []string{"play x a1", "play o a2", "play x b1", "play o b2", "play B c1"}, "B+"},
		{"last spelling counts back", []string{"play b a1", "play w a2", "play b b1", "play w b2", "play x c1"}, "X+"},
		{"draw", []string{"play b b2", "play w a1", "play b c3", "play w a3", "play b a2", "play w c2", "play b b1", "play w b3", "play b c1"}, "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newServer("tictactoe")
			defer s.Close()
			mustRun(t, s, tc.moves...)
			if got := mustRun(t, s, "final_score"); got != tc.want {
				t.Errorf("final_score = %q; want %q", got, tc.want)
			}
		})
	}
}

// boardsize N keeps the kind and K, and says what board it made.
func TestBoardsizeSaysWhatItMade(t *testing.T) {
	tests := []struct {
		rules, cmd, want, err string
	}{
		{"connect4", "boardsize 9", "connectx:9x9x4", ""},
		{"tictactoe", "boardsize 19", "mnk:19x19x3", ""},
		{"gomoku", "boardsize 15", "mnk:15x15x5", ""},
		{"gomoku", "boardsize 4", "", "unacceptable size"},
		{"connect4", "boardsize 0", "", "unacceptable size"},
		{"connect4", "boardsize 129", "", "unacceptable size"},
	}
	for _, tc := range tests {
		t.Run(tc.rules+" "+tc.cmd, func(t *testing.T) {
			s, _ := newServer(tc.rules)
			defer s.Close()
			got, err := run(s, tc.cmd)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v; want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want || s.Game().Rules().String() != tc.want {
				t.Errorf("answer %q, %v, rules %s; want %s", got, err, s.Game().Rules(), tc.want)
			}
		})
	}
}

// undo after a forfeit is refused, naming why; after a win it takes the
// winning stone back.
func TestUndoAfterAForfeit(t *testing.T) {
	s, _ := newServer("connect4")
	defer s.Close()
	mustRun(t, s, "play x 4", "kinrow-load o broken")
	if got := mustRun(t, s, "genmove o"); got != "resign" {
		t.Fatalf("genmove o = %q", got)
	}
	_, err := run(s, "undo")
	if err == nil || !strings.HasPrefix(err.Error(), "cannot undo: the game ended by forfeit, not by a move") ||
		!strings.Contains(err.Error(), "clear_board starts a new game") {
		t.Errorf("undo after a forfeit: %v", err)
	}
	if res := mustRun(t, s, "kinrow-result"); !strings.HasPrefix(res, "X+ forfeit: o (broken) answered an error: broken: no move today") {
		t.Errorf("the refused undo changed the result: %s", res)
	}
	mustRun(t, s, "kinrow-unload o", "clear_board", "play x 1", "play o 2", "play x 1", "play o 2", "play x 1", "play o 2", "play x 1")
	mustRun(t, s, "undo")
	if res := mustRun(t, s, "kinrow-result"); res != "open" || s.Game().Position().Ply() != 6 {
		t.Errorf("undo of the winning move: %s, %d plies", res, s.Game().Position().Ply())
	}
}

// The record names the bot that forfeited, not "controller".
func TestRecordNamesTheForfeitingBot(t *testing.T) {
	s, _ := newServer("tictactoe")
	defer s.Close()
	mustRun(t, s, "kinrow-load o broken", "play x b2")
	if got := mustRun(t, s, "genmove o"); got != "resign" {
		t.Fatalf("genmove o = %q", got)
	}
	var rec record.Record
	if err := json.Unmarshal([]byte(mustRun(t, s, "kinrow-record")), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Players.O != "broken" || rec.Players.X != "controller" || rec.Winner == nil || *rec.Winner != "controller" ||
		rec.Forfeit != record.ForfeitProtocolError {
		t.Errorf("record %+v", rec)
	}
}

// A bot that does not take a new game is never replaced by another bot:
// it is started afresh, and when the fresh one refuses too the command
// fails naming it; genmove then fails the same way.
func TestRefusedNewGameNeverPlaysAnotherBot(t *testing.T) {
	t.Run("a fresh process takes it", func(t *testing.T) {
		s, l := newServer("connect4")
		defer s.Close()
		mustRun(t, s, "kinrow-load x refuser", "play x 4")
		mustRun(t, s, "clear_board") // the first process refuses its second game
		if got := strings.Join(l.started(), " "); got != "refuser refuser" {
			t.Errorf("bots started: %s; want refuser twice", got)
		}
		mustRun(t, s, "genmove x")
		if p := s.Game().Record().Players; p.X != "refuser" {
			t.Errorf("x is played by %q", p.X)
		}
	})
	for _, cmd := range []string{"rules tictactoe", "rules mnk 6 7 4"} {
		t.Run(cmd, func(t *testing.T) {
			s, l := newServer("connect4")
			defer s.Close()
			mustRun(t, s, "kinrow-load x mnkless", "boardsize 7") // Connect-X stays Connect-X: mnkless plays it
			_, err := run(s, cmd)
			if err == nil || !strings.Contains(err.Error(), "x (mnkless) refused mnk:") ||
				!strings.Contains(err.Error(), "mnkless plays no m,n,k game") ||
				!strings.Contains(err.Error(), "a fresh mnkless refused it too") {
				t.Errorf("%s: %v; want ? naming mnkless and why", cmd, err)
			}
			_, err = run(s, "genmove x")
			if err == nil || !strings.Contains(err.Error(), "mnkless refused the game: mnkless plays no m,n,k game") {
				t.Errorf("genmove x: %v; want ? naming mnkless", err)
			}
			for _, k := range l.started() {
				if k != "mnkless" {
					t.Errorf("another bot was started: %v", l.started())
				}
			}
			if p := s.Game().Record().Players; p.X != "controller" {
				t.Errorf("the record names %q for x", p.X)
			}
			mustRun(t, s, "kinrow-unload x") // the default bot only when asked
			mustRun(t, s, "genmove x")
			if p := s.Game().Record().Players; p.X != "first" {
				t.Errorf("after kinrow-unload x is played by %q", p.X)
			}
		})
	}
}
