package botflags

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// --bot-suspend alone or =true suspends every bot, =NAME,NAME those bots,
// and a bad list is refused saying what is accepted.
func TestSuspendFlag(t *testing.T) {
	type suspendCase struct {
		args  []string
		all   bool
		names []string
		err   bool
	}
	for _, tc := range []suspendCase{
		{nil, false, nil, false},
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
