package gomocup

import (
	"fmt"
	"strconv"
	"strings"
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
