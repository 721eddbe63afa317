package pbrain

import (
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

func TestLimit(t *testing.T) {
	cfg := Config{DefaultTurn: 5 * time.Second, FastTurn: 100 * time.Millisecond}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tests := []struct {
		name  string
		infos []string
		spent time.Duration
		want  time.Duration
	}{
		{"nothing said: the default", nil, 0, 5 * time.Second},
		{"timeout_turn", []string{"timeout_turn 1000"}, 0, ms(1000)},
		{"as fast as possible", []string{"timeout_turn 0"}, 0, ms(100)},
		{"match time share", []string{"timeout_turn 30000", "timeout_match 180000"}, 0, ms(9000)},
		{"match time used", []string{"timeout_turn 30000", "timeout_match 180000"}, ms(80000), ms(5000)},
		{"time_left rules", []string{"timeout_turn 30000", "timeout_match 180000", "time_left 20000"}, 0, ms(1000)},
		{"time_left ages with the brain's own time", []string{"time_left 20000"}, ms(10000), ms(500)},
		{"a nearly spent clock: half of it, at most the fast turn", []string{"time_left 100"}, 0, ms(50)},
		{"a spent clock", []string{"time_left 0"}, 0, time.Millisecond},
		{"match over", []string{"timeout_match 1000"}, ms(5000), time.Millisecond},
		{"settings persist, the last wins", []string{"timeout_turn 1000", "rule 0", "timeout_turn 2000"}, 0, ms(2000)},
		{"a bad value keeps the old one", []string{"timeout_turn 700", "timeout_turn -5"}, 0, ms(700)},
		{"huge values do not overflow", []string{"timeout_turn 99999999999999999"}, 0, time.Duration(maxMillis) * time.Millisecond},
	}
	for _, tt := range tests {
		var s settings
		for _, line := range tt.infos {
			c, err := gomocup.ParseCommand("INFO " + line)
			if err != nil {
				t.Fatal(err)
			}
			_ = s.set(c, 0)
		}
		if got := s.limit(cfg, tt.spent); got != tt.want {
			t.Errorf("%s: limit %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSettingsErrors(t *testing.T) {
	for _, line := range []string{"timeout_turn x", "timeout_match -1", "time_left 1.5", "max_memory lots", "rule renju", "game_type -1"} {
		var s settings
		c, _ := gomocup.ParseCommand("INFO " + line)
		if err := s.set(c, 0); err == nil || !strings.Contains(err.Error(), "want") {
			t.Errorf("INFO %s: %v; want an error saying what is accepted", line, err)
		}
	}
	var s settings
	for _, line := range []string{"evaluate 3,4", "folder /tmp/x", "unknown_key 1"} {
		c, _ := gomocup.ParseCommand("INFO " + line)
		if err := s.set(c, 0); err != nil {
			t.Errorf("INFO %s: %v; want it accepted or ignored", line, err)
		}
	}
	for r, ok := range map[string]bool{"0": true, "1": true, "4": true, "5": true, "2": false, "8": false, "3": false, "12": false} {
		c, _ := gomocup.ParseCommand("INFO rule " + r)
		_ = s.set(c, 0)
		if err := s.supported(); (err == nil) != ok || !ok && !strings.Contains(err.Error(), "kinrow plays INFO rule 0 (freestyle: five or more wins), 1 (exactly five) and 4 (renju)") {
			t.Errorf("rule %s: %v; supported: %v", r, err, ok)
		}
	}
}

func TestBoardMoves(t *testing.T) {
	r, _ := gomocup.FreestyleRules(15, 15)
	st := func(x, y int, f gomocup.Field) gomocup.Stone {
		return gomocup.Stone{Point: gomocup.Point{X: x, Y: y}, Field: f}
	}
	tests := []struct {
		name   string
		stones []gomocup.Stone
		want   string // moves in kinrow notation, or an error text
	}{
		{"empty", nil, ""},
		{"brain moved first", []gomocup.Stone{st(7, 7, 1), st(8, 8, 2)}, "h8 j7"},
		{"opponent moved first", []gomocup.Stone{st(7, 7, 2), st(8, 8, 1), st(9, 9, 2)}, "h8 j7 k6"},
		{"each side in the order sent", []gomocup.Stone{st(0, 0, 1), st(1, 0, 1), st(2, 2, 2), st(3, 3, 2)}, "a15 c13 b15 d12"},
		{"field 3", []gomocup.Stone{st(0, 0, 3)}, "field 3 (continuous game)"},
		{"too many own", []gomocup.Stone{st(0, 0, 1)}, "1 own stones and 0 of the opponent"},
		{"too many opponent", []gomocup.Stone{st(0, 0, 2), st(1, 1, 2)}, "0 own stones and 2 of the opponent"},
		{"twice", []gomocup.Stone{st(0, 0, 2), st(0, 0, 1)}, "stone 0,0 is sent twice"},
		{"off the board", []gomocup.Stone{st(15, 0, 2)}, "outside the board"},
	}
	for _, tt := range tests {
		moves, err := boardMoves(r, tt.stones)
		got := r.FormatMoveList(moves)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) || (err == nil && got != tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFallback(t *testing.T) {
	r, _ := gomocup.FreestyleRules(15, 15)
	tests := []struct {
		name  string
		moves string // played first
		best  string // the bot's best so far ("" none)
		want  string
	}{
		{"empty board: the centre", "", "", "h8"},
		{"the bot's best move", "h8", "a1", "a1"},
		{"an illegal best move is ignored", "h8", "h8", "h7"},
		{"win now", "a1 o1 a2 o2 a3 o3 a4 o4", "", "a5"},
		{"block the opponent's five", "h8 a1 j8 a3 k8 a5 l8", "", "g8"},
		{"next to the stones, nearest the centre", "a1", "", "b2"},
	}
	for _, tt := range tests {
		pos := engine.NewPosition(r)
		moves, err := r.ParseMoveList(tt.moves)
		if err != nil {
			t.Fatal(err)
		}
		if err := pos.PlayMoveList(moves); err != nil {
			t.Fatal(err)
		}
		best := engine.NoMove
		if tt.best != "" {
			best, _ = r.ParseMove(tt.best)
		}
		m, how := fallback(pos, best)
		if got := r.FormatMove(m); got != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, got, how, tt.want)
		}
	}
}
