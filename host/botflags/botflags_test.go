package botflags

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kinrow/kinrow/host/procrun"
)

// Every plugin bot is suspended by default, and with --bot-suspend alone or
// =true; =NAME,NAME those bots only, =false none; a bad list is refused
// saying what is accepted.
func TestSuspendFlag(t *testing.T) {
	type suspendCase struct {
		args  []string
		all   bool
		names []string
		err   bool
	}
	for _, tc := range []suspendCase{
		{nil, true, nil, false},
		{[]string{"--bot-suspend=false"}, false, nil, false},
		{[]string{"--bot-suspend"}, true, nil, false},
		{[]string{"--bot-suspend=true"}, true, nil, false},
		{[]string{"--bot-suspend=alphabeta,random"}, false, []string{"alphabeta", "random"}, false},
		{[]string{"--bot-suspend=random", "--bot-suspend=false"}, false, nil, false},
		{[]string{"--bot-suspend=a,,b"}, false, nil, true},
		{[]string{"--bot-suspend=../x"}, false, nil, true},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		var c Contain
		c.Register(fs)
		err := fs.Parse(tc.args)
		if (err != nil) != tc.err {
			t.Errorf("%q: error %v, want error %v", tc.args, err, tc.err)
			continue
		}
		if tc.err {
			if !strings.Contains(err.Error(), "bot names separated by commas") {
				t.Errorf("%q: error %v does not say what is accepted", tc.args, err)
			}
			continue
		}
		got := c.Containment()
		if got.SuspendAll != tc.all || !slices.Equal(got.Suspend, tc.names) {
			t.Errorf("%q: SuspendAll %v Suspend %q, want %v %q", tc.args, got.SuspendAll, got.Suspend, tc.all, tc.names)
		}
	}
}

// The limits are the defaults unless a flag changes them; none lifts one.
func TestLimitFlags(t *testing.T) {
	def := procrun.DefaultLimits()
	for _, tc := range []struct {
		args []string
		want procrun.Limits
		mem  int64
	}{
		{nil, def, procrun.DefaultMemoryCap()},
		{[]string{"--bot-pids", "64", "--bot-file-size", "8M", "--bot-cpus", "0.5", "--bot-memory", "350M"},
			procrun.Limits{Pids: 64, FileSize: 8 << 20, CPUs: 0.5}, 350 << 20},
		{[]string{"--bot-pids", "none", "--bot-file-size", "none", "--bot-memory", "none"}, procrun.Limits{}, 0},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var c Contain
		c.Register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got := c.Containment(); got.Limits != tc.want || got.Memory != tc.mem {
			t.Errorf("%q: limits %+v memory %d, want %+v %d", tc.args, got.Limits, got.Memory, tc.want, tc.mem)
		}
	}
}
