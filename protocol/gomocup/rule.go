package gomocup

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/engine"
)

// Rule is the value of INFO rule: a bit mask of rule variants; 0 is
// freestyle (five or more in a row wins).
type Rule int

// The bits of Rule.
const (
	RuleFreestyle  Rule = 0 // no bit: five or more in a row wins
	RuleExactFive  Rule = 1 // exactly five in a row wins
	RuleContinuous Rule = 2 // continuous game: play on after a five
	RuleRenju      Rule = 4 // renju: forbidden moves for the first player
	RuleCaro       Rule = 8 // caro: a five blocked at both ends does not win
)

// String names the variants of r: "freestyle", or the names of its bits
// joined by "+", e.g. "exactly five+renju"; unknown bits are printed as a
// number.
func (r Rule) String() string {
	if r == RuleFreestyle {
		return "freestyle"
	}
	var names []string
	for _, b := range []struct {
		bit  Rule
		name string
	}{{RuleExactFive, "exactly five"}, {RuleContinuous, "continuous"}, {RuleRenju, "renju"}, {RuleCaro, "caro"}} {
		if r&b.bit != 0 {
			names = append(names, b.name)
			r &^= b.bit
		}
	}
	if r != 0 {
		names = append(names, "bits "+strconv.Itoa(int(r)))
	}
	return strings.Join(names, "+")
}

// ParseRule reads the value of INFO rule: a number from 0.
func ParseRule(s string) (Rule, error) {
	v, err := parseNumber(s)
	if err != nil {
		return 0, fmt.Errorf("rule %w: want a bit mask, 0 freestyle, 1 exactly five, 2 continuous, 4 renju, 8 caro", err)
	}
	return Rule(v), nil
}

// The INFO keys the protocol defines. Keys are case-insensitive; the parser
// returns them in lower case. Unknown keys are to be ignored.
const (
	InfoTimeoutTurn  = "timeout_turn"  // ms per move; 0: as fast as possible
	InfoTimeoutMatch = "timeout_match" // ms for the whole match; 0: no limit
	InfoTimeLeft     = "time_left"     // ms left in the match, sent before every move
	InfoMaxMemory    = "max_memory"    // bytes; 0: no limit
	InfoGameType     = "game_type"     // 0 human, 1 brain, 2 tournament, 3 network
	InfoRule         = "rule"          // a Rule bit mask
	InfoEvaluate     = "evaluate"      // X,Y of the mouse cursor (for debugging)
	InfoFolder       = "folder"        // a folder for persistent files
)

// TimeLeftUnlimited is the INFO time_left a manager sends before every move
// when the match time is unlimited (the protocol's 2^31-1 ms).
const TimeLeftUnlimited = 2147483647

// RulesSupported names the INFO rule values kinrow plays, for messages.
const RulesSupported = "0 (freestyle: five or more wins), 1 (exactly five) and 4 (renju)"

// Line returns the engine's line rule of r: freestyle for 0, exact for 1
// (exactly five), renju for 4 (renju's five is exactly five for black, so
// 5 = 1+4 is renju too). Continuous games and caro are refused, naming
// the values kinrow plays.
func (r Rule) Line() (engine.Line, error) {
	switch r {
	case RuleFreestyle:
		return engine.Freestyle, nil
	case RuleExactFive:
		return engine.Exact, nil
	case RuleRenju, RuleRenju | RuleExactFive:
		return engine.Renju, nil
	}
	return 0, fmt.Errorf("rule %d (%s) is not supported: kinrow plays INFO rule %s", int(r), r, RulesSupported)
}

// RuleOf returns the INFO rule value of a line rule: 0, 1 or 4.
func RuleOf(l engine.Line) Rule {
	switch l {
	case engine.Exact:
		return RuleExactFive
	case engine.Renju:
		return RuleRenju
	}
	return RuleFreestyle
}

// BoardRules returns the kinrow rules of a Gomocup board width columns
// wide and height rows high under INFO rule r: mnk:{height}x{width}x5 with
// r's line rule (see Rule.Line). It fails, naming the limit, for a board or
// a rule kinrow does not play.
func BoardRules(width, height int, r Rule) (engine.Rules, error) {
	rules, err := FreestyleRules(width, height)
	if err != nil {
		return engine.Rules{}, err
	}
	l, err := r.Line()
	if err != nil {
		return engine.Rules{}, err
	}
	if rules, err = rules.WithLine(l); err != nil {
		return engine.Rules{}, fmt.Errorf("board %dx%d, rule %d: %w", width, height, int(r), err)
	}
	return rules, nil
}
