package containflags

import (
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/procrun"
)

// The limit flags read a value or none, and refuse the rest saying what is
// accepted; the zero value (the flag not given) leaves the default.
func TestLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		flag, in string
		want     int64 // the limit with a default of 7 (0: none)
		err      string
	}{
		{"pids", "64", 64, ""},
		{"pids", "none", 0, ""},
		{"pids", "", 0, "positive number of tasks"},
		{"pids", "0", 0, "positive number of tasks"},
		{"pids", "-5", 0, "or none"},
		{"pids", "lots", 0, "positive number of tasks"},
		{"size", "1GiB", 1 << 30, ""},
		{"size", "None", 0, ""},
		{"size", "0", 0, "or none"},
		{"size", "-1M", 0, "must be more than 0"},
		{"cpus", "0.5", 0, ""},
		{"cpus", "none", 0, ""},
		{"cpus", "0", 0, "CPUs from 0.01 to 1024"},
		{"cpus", "NaN", 0, "CPUs from 0.01 to 1024"},
		{"cpus", "-1", 0, "CPUs from 0.01 to 1024"},
	} {
		var err error
		var got int64
		switch tc.flag {
		case "pids":
			var p Pids
			if p.Limit(7) != 7 {
				t.Errorf("unset --bot-pids: %d, want the default", p.Limit(7))
			}
			err = p.Set(tc.in)
			got = int64(p.Limit(7))
		case "size":
			var s Size
			if s.Bytes(7) != 7 {
				t.Errorf("unset size: %d, want the default", s.Bytes(7))
			}
			err = s.Set(tc.in)
			got = s.Bytes(7)
		case "cpus":
			var c CPUs
			err = c.Set(tc.in)
			if tc.in == "0.5" && float64(c) != 0.5 {
				t.Errorf("--bot-cpus 0.5: %v", c)
			}
		}
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q: error %v, want one saying %q", tc.flag, tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s %q: %v", tc.flag, tc.in, err)
		case got != tc.want && tc.flag != "cpus":
			t.Errorf("%s %q: %d, want %d", tc.flag, tc.in, got, tc.want)
		}
	}
}

// FuzzLimitFlags: whatever the text, --bot-pids, --bot-memory and
// --bot-cpus either refuse it or hold a limit that is none or positive.
func FuzzLimitFlags(f *testing.F) {
	for _, s := range []string{"64", "none", "0", "-1", "0.5", "1GiB", "NaN", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var p Pids
		if p.Set(v) == nil && p.Limit(procrun.DefaultPids) < 0 {
			t.Fatalf("--bot-pids %q: limit %d", v, p.Limit(procrun.DefaultPids))
		}
		var s Size
		if s.Set(v) == nil && s.Bytes(procrun.DefaultMemory) < 0 {
			t.Fatalf("--bot-memory %q: %d bytes", v, s.Bytes(procrun.DefaultMemory))
		}
		var c CPUs
		if c.Set(v) == nil && !(c == 0 || c >= 0.01 && c <= 1024) {
			t.Fatalf("--bot-cpus %q: %v", v, c)
		}
	})
}
