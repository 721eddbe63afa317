package gtpfront

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/referee/refereetest"
	"github.com/kinrow/kinrow/internal/golden"
)

// fakeBot is the fake player a kind (the name it is loaded under) makes:
// "first" and "last" play the first and the last legal move, "refuser"
// takes one game per process, "mnkless" refuses every m,n,k game, "broken"
// answers an error to genmove.
func fakeBot(kind, display string) *refereetest.Player {
	p := &refereetest.Player{Label: display}
	switch kind {
	case "last":
		p.Answer = refereetest.LastLegal
	case "refuser":
		p.Refuse = func(game int, _ referee.Setup) error {
			if game > 1 {
				return fmt.Errorf("refuser takes one game per process, this is game %d", game)
			}
			return nil
		}
	case "mnkless":
		p.Refuse = func(_ int, s referee.Setup) error {
			if s.Rules.Kind == engine.MNK {
				return errors.New("mnkless plays no m,n,k game")
			}
			return nil
		}
	case "broken":
		p.Answer = func(context.Context, *engine.Position) (string, error) {
			return "", errors.New("broken: no move today")
		}
	}
	return p
}

// fakeLoader loads fakeBots; Names lists only the two well-behaved ones.
type fakeLoader struct {
	mu      sync.Mutex
	kinds   []string // of the bots started so far
	players []*refereetest.Player
}

func (l *fakeLoader) Names() []string { return []string{"first", "last"} }
func (l *fakeLoader) Load(_ context.Context, name, display string, opts map[string]string) (referee.Player, error) {
	switch name {
	case "first", "last", "refuser", "mnkless", "broken":
	default:
		return nil, fmt.Errorf("unknown bot %q: bots found: first, last", name)
	}
	for k := range opts {
		return nil, fmt.Errorf("unknown option %s: accepted are none", k)
	}
	l.mu.Lock()
	p := fakeBot(name, display)
	l.kinds = append(l.kinds, name)
	l.players = append(l.players, p)
	l.mu.Unlock()
	return p, nil
}
func (l *fakeLoader) Default(context.Context, engine.Rules) (string, error) { return "first", nil }
func (l *fakeLoader) Close()                                                {}

// started lists the kinds of the bots started so far.
func (l *fakeLoader) started() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.kinds...)
}

func TestGoldenTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.gtp"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			input, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			loader := &fakeLoader{}
			s := New(Config{Loader: loader, Rules: engine.Connect4(), Version: "test"})
			var out bytes.Buffer
			if err := s.Serve(context.Background(), bytes.NewReader(input), &out); err != nil {
				t.Fatal(err)
			}
			got := out.Bytes()
			// Records carry wall-clock times; mask them for the comparison.
			got = maskTimes(got)
			golden.Check(t, strings.TrimSuffix(in, ".gtp")+".golden", got)
			for _, b := range loader.players {
				if !b.Facts().Exited {
					t.Errorf("bot %s still running after the session", b.Name())
				}
			}
		})
	}
}

func maskTimes(b []byte) []byte {
	s := string(b)
	for _, key := range []string{`"start":"`, `"end":"`} {
		for i := 0; ; {
			j := strings.Index(s[i:], key)
			if j < 0 {
				break
			}
			start := i + j + len(key)
			end := strings.IndexByte(s[start:], '"')
			s = s[:start] + "T" + s[start+end:]
			i = start
		}
	}
	return []byte(s)
}

func TestBadInputLeavesPositionUnchanged(t *testing.T) {
	ctx := context.Background()
	s := New(Config{Loader: &fakeLoader{}, Rules: engine.Connect4()})
	for _, cmd := range []string{"play x 4", "play o 4", "play x 1", "play o 1", "play x 1", "play o 1", "play x 1", "play o 1"} {
		f := strings.Fields(cmd)
		if _, err := s.Do(ctx, f[0], f[1:]); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	tests := []struct{ cmd, want string }{
		{"frobnicate", "unknown command"},
		{"play x", "syntax error: want play COLOR MOVE"},
		{"play x 9", "illegal move: column 9 outside the board"},
		{"play x 0", "illegal move: column 0 outside the board"},
		{"play x 1", "illegal move: column 1: column is full"},
		{"play o 2", "illegal move: o is not to move"},
		{"play red 2", "syntax error: invalid color"},
		{"play x garbage", "illegal move: invalid move"},
		{"rules mnk 0 5 3", "rows 0 out of range"},
		{"rules connectx 6 7 99", "k 99 out of range"},
		{"rules chess", "unknown rules"},
		{"kinrow-load x ../../bin/sh", "unknown bot"},
		{"kinrow-load x first depth=3", "unknown option depth"},
		{"kinrow-load x first depth", "not KEY=VALUE"},
		{"kinrow-movetime 0", "syntax error"},
		{"time_settings a 1 1", "syntax error"},
		{"final_score", "cannot score"},
		{"boardsize 2", "unacceptable size"},
		{"genmove o", "o is not to move"},
	}
	before := s.Game().Position().Diagram()
	for _, tc := range tests {
		f := strings.Fields(tc.cmd)
		_, err := s.Do(ctx, f[0], f[1:])
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want %q", tc.cmd, err, tc.want)
		}
		if got := s.Game().Position().Diagram(); got != before {
			t.Fatalf("%s changed the position", tc.cmd)
		}
	}
}

func TestSelfPlayNames(t *testing.T) {
	ctx := context.Background()
	s := New(Config{Loader: &fakeLoader{}, Rules: engine.Connect4(), MoveTime: time.Second})
	for _, cmd := range []string{"kinrow-load x first", "kinrow-load o first"} {
		f := strings.Fields(cmd)
		if _, err := s.Do(ctx, f[0], f[1:]); err != nil {
			t.Fatal(err)
		}
	}
	if p := s.Game().Record().Players; p.X != "first" || p.O != "first#2" {
		t.Errorf("players = %+v; want first and first#2", p)
	}
}
