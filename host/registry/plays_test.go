package registry

import (
	"testing"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// TestPlaysVariants: a bot plays a line rule only when its Kinds name the
// variant; "mnk" alone is freestyle.
func TestPlaysVariants(t *testing.T) {
	free := botapi.Info{Kinds: []string{"connectx", "mnk"}}
	all := botapi.Info{Kinds: engine.Variants()}
	for _, tc := range []struct {
		rules     string
		free, all bool
	}{
		{"gomoku", true, true},
		{"connect4", true, true},
		{"gomoku-standard", false, true},
		{"renju", false, true},
		{"connectx:6x7x4:exact", false, true},
	} {
		r, err := engine.ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		if free.Declares(r) != tc.free || all.Declares(r) != tc.all {
			t.Errorf("%s: freestyle bot plays %v, every-variant bot %v; want %v, %v", tc.rules, free.Declares(r), all.Declares(r), tc.free, tc.all)
		}
	}
}
