package engine

import (
	"strings"
	"testing"
)

func TestParseRules(t *testing.T) {
	tests := []struct {
		in   string
		want Rules
		err  string // substring of the error; "" for success
	}{
		{"connect4", Rules{ConnectX, 6, 7, 4, Freestyle}, ""},
		{"Connect4", Rules{ConnectX, 6, 7, 4, Freestyle}, ""},
		{"tictactoe", Rules{MNK, 3, 3, 3, Freestyle}, ""},
		{"gomoku", Rules{MNK, 15, 15, 5, Freestyle}, ""},
		{"connectx:6x7x4", Rules{ConnectX, 6, 7, 4, Freestyle}, ""},
		{"mnk:70x70x10", Rules{MNK, 70, 70, 10, Freestyle}, ""},
		{"connectx:38x58x12", Rules{ConnectX, 38, 58, 12, Freestyle}, ""},
		{"mnk:128x1x2", Rules{MNK, 128, 1, 2, Freestyle}, ""},
		{"mnk:0x5x3", Rules{}, "rows 0 out of range"},
		{"connectx:6x7x99", Rules{}, "k 99 out of range"},
		{"connectx:6x7x1", Rules{}, "k 1 out of range"},
		{"mnk:129x3x3", Rules{}, "rows 129 out of range"},
		{"mnk:3x200x3", Rules{}, "columns 200 out of range"},
		{"chess", Rules{}, "unknown rules"},
		{"go:9x9x5", Rules{}, "unknown game"},
		{"mnk:3x3", Rules{}, "want mnk:ROWSxCOLSxK"},
		{"mnk:axbxc", Rules{}, "is not a number"},
		{"", Rules{}, "unknown rules"},
	}
	for _, tc := range tests {
		got, err := ParseRules(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("ParseRules(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseRules(%q) error = %v; want it to contain %q", tc.in, err, tc.err)
		}
	}
}

func TestRulesStringRoundTrip(t *testing.T) {
	for _, s := range []string{"connectx:6x7x4", "mnk:15x15x5", "mnk:1x128x2"} {
		r, err := ParseRules(s)
		if err != nil {
			t.Fatal(err)
		}
		if r.String() != s {
			t.Errorf("String() = %q, want %q", r.String(), s)
		}
	}
}

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"connect4", "mnk:3x3x3", "connectx:38x58x12", "mnk:0x0x0", "x:1x2x3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRules(s)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("ParseRules(%q) accepted invalid rules: %v", s, err)
		}
		back, err := ParseRules(r.String())
		if err != nil || back != r {
			t.Fatalf("round trip of %q: %v, %v", r.String(), back, err)
		}
	})
}

func TestParseColor(t *testing.T) {
	for in, want := range map[string]Color{"x": X, "B": X, "black": X, "O": O, "w": O, "WHITE": O} {
		got, err := ParseColor(in)
		if err != nil || got != want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseColor("red"); err == nil || !strings.Contains(err.Error(), "accepted are") {
		t.Errorf("ParseColor(red) error = %v", err)
	}
}
