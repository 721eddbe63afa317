package containflags

import (
	"slices"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/procrun"
)

// Each value reads what it accepts and refuses the rest, saying what is
// accepted.
func TestSuspend(t *testing.T) {
	for _, tc := range []struct {
		sets  []string
		all   bool
		names []string
		err   string
	}{
		{[]string{"true"}, true, nil, ""},
		{[]string{"alphabeta,random"}, false, []string{"alphabeta", "random"}, ""},
		{[]string{"random", "false"}, false, nil, ""},
		{[]string{"a,,b"}, false, nil, "bot names separated by commas"},
		{[]string{"../x"}, false, nil, "bot names separated by commas"},
	} {
		var s Suspend
		var err error
		for _, v := range tc.sets {
			if err = s.Set(v); err != nil {
				break
			}
		}
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one saying %q", tc.sets, err, tc.err)
			}
		case err != nil || s.All != tc.all || !slices.Equal(s.Names, tc.names):
			t.Errorf("%q: %+v %v, want all %v names %q", tc.sets, s, err, tc.all, tc.names)
		}
	}
}

func TestMemoryAndEnv(t *testing.T) {
	var m Memory
	if err := m.Set("2GiB"); err != nil || int64(m) != 2<<30 || m.String() == "" {
		t.Errorf("2GiB: %d %v", m, err)
	}
	if err := m.Set("lots"); err == nil {
		t.Error("lots: no error")
	}
	var e Env
	if err := e.Set("HOME"); err != nil || e.String() != "HOME" {
		t.Errorf("HOME: %q %v", e, err)
	}
	if err := e.Set("A=B"); err == nil {
		t.Error("A=B: no error")
	}
	var s Sandbox
	if err := s.Set("off"); err != nil || s.String() != "off" {
		t.Errorf("off: %v %v", s, err)
	}
	if err := s.Set("maybe"); err == nil {
		t.Error("maybe: no error")
	}
}

// --sandbox=require is refused exactly where the full sandbox is missing,
// naming what is; the other modes never are.
func TestCheckSandbox(t *testing.T) {
	for _, mode := range []string{"auto", "off"} {
		var s Sandbox
		if err := s.Set(mode); err != nil {
			t.Fatal(err)
		}
		if err := CheckSandbox(s.Mode); err != nil {
			t.Errorf("%s: %v", mode, err)
		}
	}
	var s Sandbox
	if err := s.Set("require"); err != nil {
		t.Fatal(err)
	}
	err := CheckSandbox(s.Mode)
	full := procrun.SandboxDetect().Full
	if full != (err == nil) || (err != nil && !strings.Contains(err.Error(), "--sandbox=require")) {
		t.Errorf("require with a full sandbox %v: %v", full, err)
	}
}

// FuzzSuspend: whatever --bot-suspend's text, it is refused or gives
// names without separators or path characters.
func FuzzSuspend(f *testing.F) {
	for _, s := range []string{"true", "false", "a,b", "a,,b", "../x", " a , b "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var s Suspend
		if err := s.Set(v); err != nil {
			return
		}
		for _, n := range s.Names {
			if n == "" || strings.ContainsAny(n, "/\\ =,") {
				t.Fatalf("%q: accepted name %q", v, n)
			}
		}
	})
}
