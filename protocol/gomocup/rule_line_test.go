package gomocup

import (
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine"
)

// TestRuleLine: INFO rule 0, 1 and 4 (and 5) map to the engine's line rules
// and back; the others are refused naming what is played.
func TestRuleLine(t *testing.T) {
	for _, tc := range []struct {
		rule  Rule
		line  engine.Line
		back  Rule
		rules string
	}{
		{RuleFreestyle, engine.Freestyle, RuleFreestyle, "mnk:15x20x5"},
		{RuleExactFive, engine.Exact, RuleExactFive, "mnk:15x20x5:exact"},
		{RuleRenju, engine.Renju, RuleRenju, "mnk:15x20x5:renju"},
		{RuleRenju | RuleExactFive, engine.Renju, RuleRenju, "mnk:15x20x5:renju"},
	} {
		l, err := tc.rule.Line()
		if err != nil || l != tc.line || RuleOf(l) != tc.back {
			t.Errorf("rule %d: %v, %v; back %d", tc.rule, l, err, RuleOf(l))
		}
		r, err := BoardRules(20, 15, tc.rule)
		if err != nil || r.String() != tc.rules {
			t.Errorf("BoardRules(20, 15, %d) = %v, %v; want %s", tc.rule, r, err, tc.rules)
		}
	}
	for _, r := range []Rule{RuleContinuous, RuleCaro, RuleExactFive | RuleContinuous, 16} {
		if _, err := r.Line(); err == nil || !strings.Contains(err.Error(), "kinrow plays INFO rule 0 (freestyle: five or more wins), 1 (exactly five) and 4 (renju)") {
			t.Errorf("rule %d: %v", r, err)
		}
		if _, err := BoardRules(15, 15, r); err == nil {
			t.Errorf("BoardRules under rule %d: no error", r)
		}
	}
	if _, err := BoardRules(4, 15, RuleRenju); err == nil {
		t.Error("BoardRules(4, 15): no error")
	}
}
