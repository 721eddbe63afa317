package match

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/host/referee"
)

// --bot-opt NAME:K=V reaches every copy of NAME, NAME#N:K=V the N-th only
// (after the options for every copy, whatever the order), and refusals
// say what is accepted.
func TestParseBotSpecs(t *testing.T) {
	type opts = map[string]string
	for _, tc := range []struct {
		name string
		bots []string
		args []string
		want []opts
		err  string
	}{
		{"every copy", []string{"ab", "ab"}, []string{"ab:tt=16"}, []opts{{"tt": "16"}, {"tt": "16"}}, ""},
		{"second copy", []string{"ab", "ab"}, []string{"ab#2:tt=16"}, []opts{{}, {"tt": "16"}}, ""},
		{"first copy", []string{"ab", "r", "ab"}, []string{"ab#1:tt=8"}, []opts{{"tt": "8"}, {}, {}}, ""},
		{"copy wins over all", []string{"ab", "ab"}, []string{"ab#2:tt=32", "ab:tt=16"}, []opts{{"tt": "16"}, {"tt": "32"}}, ""},
		{"two bots", []string{"ab", "r"}, []string{"r:seed=7", "ab:tt=1"}, []opts{{"tt": "1"}, {"seed": "7"}}, ""},
		{"value with colon and equals", []string{"ab"}, []string{"ab:x=a:b=c"}, []opts{{"x": "a:b=c"}}, ""},
		{"no such bot", []string{"ab", "r"}, []string{"mics:x=1"}, nil, "no --bot mics"},
		{"no such copy", []string{"ab", "ab"}, []string{"ab#3:x=1"}, nil, "there are 2 --bot ab, not 3"},
		{"bad copy", []string{"ab", "ab"}, []string{"ab#two:x=1"}, nil, "NAME#N with N the copy from 1"},
		{"copy zero", []string{"ab", "ab"}, []string{"ab#0:x=1"}, nil, "NAME#N"},
		{"no key", []string{"ab"}, []string{"ab:=1"}, nil, "want NAME:KEY=VALUE"},
		{"no name", []string{"ab"}, []string{":k=1"}, nil, "want NAME:KEY=VALUE"},
		{"no value", []string{"ab"}, []string{"ab:k"}, nil, "want NAME:KEY=VALUE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specs, err := ParseBotSpecs(tc.bots, tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range specs {
				if s.Name != tc.bots[i] || !maps.Equal(s.Opts, tc.want[i]) {
					t.Errorf("bot %d: %s %v, want %s %v", i+1, s.Name, s.Opts, tc.bots[i], tc.want[i])
				}
			}
		})
	}
}

func TestParseClock(t *testing.T) {
	for _, tc := range []struct {
		movetime time.Duration
		tc       string
		want     referee.Clock
		err      string
	}{
		{0, "", referee.Clock{MoveTime: 100 * time.Millisecond}, ""},
		{time.Second, "", referee.Clock{MoveTime: time.Second}, ""},
		{0, "10s+0.1s", referee.Clock{MoveTime: 100 * time.Millisecond, Main: 10 * time.Second, Increment: 100 * time.Millisecond}, ""},
		{0, "1m", referee.Clock{MoveTime: 100 * time.Millisecond, Main: time.Minute}, ""},
		{time.Second, "1m", referee.Clock{}, "not both"},
		{-time.Second, "", referee.Clock{}, "must be positive"},
		{0, "10+1", referee.Clock{}, "want MAIN+INC"},
		{0, "0s", referee.Clock{}, "want MAIN+INC"},
		{0, "1s+-1s", referee.Clock{}, "want MAIN+INC"},
	} {
		got, err := ParseClock(tc.movetime, tc.tc)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v %q: error %v, want one saying %q", tc.movetime, tc.tc, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%v %q: %+v %v, want %+v", tc.movetime, tc.tc, got, err, tc.want)
		}
	}
}

// Settings.Config refuses what no run can play, naming the flag.
func TestSettingsConfig(t *testing.T) {
	base := Settings{Rules: "connect4", Bots: []string{"a", "b"}, Games: 2, Concurrency: 1}
	for _, tc := range []struct {
		name string
		edit func(*Settings)
		err  string
	}{
		{"ok", func(*Settings) {}, ""},
		{"rules", func(s *Settings) { s.Rules = "chess" }, "--rules"},
		{"resume", func(s *Settings) { s.Resume = true }, "--resume needs --out"},
		{"openings and random", func(s *Settings) { s.Openings, s.RandomPlies = "x", 2 }, "not both"},
		{"shard without out", func(s *Settings) { s.Shard = "0/2" }, "--shard needs --out"},
		{"shard auto", func(s *Settings) { s.Shard = "auto"; s.Getenv = func(string) string { return "" } }, "SLURM"},
		{"sprt", func(s *Settings) { s.SPRT = "elo0=x" }, "--sprt"},
		{"bot opt", func(s *Settings) { s.BotOpts = []string{"c:k=v"} }, "no --bot c"},
		{"openings file", func(s *Settings) { s.Openings = "/nonexistent/openings.txt" }, "--openings"},
	} {
		s := base
		tc.edit(&s)
		_, err := s.Config()
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.err)
		}
	}
}

func FuzzParseBotSpecs(f *testing.F) {
	for _, s := range []string{"ab:tt=16", "ab#2:tt=1", "ab#x:y=z", ":=", "ab#0:k=v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, opt string) {
		specs, err := ParseBotSpecs([]string{"ab", "ab", "r"}, []string{opt})
		if err != nil {
			return
		}
		set := 0
		for _, s := range specs {
			set += len(s.Opts)
		}
		if set == 0 {
			t.Fatalf("%q accepted but set nothing", opt)
		}
	})
}

func FuzzParseClock(f *testing.F) {
	for _, s := range []string{"10s+0.1s", "1m", "+", "1s+", "-1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tc string) {
		c, err := ParseClock(0, tc)
		if err == nil && tc != "" && (c.Main <= 0 || c.Increment < 0) {
			t.Fatalf("%q: accepted as %+v", tc, c)
		}
	})
}
