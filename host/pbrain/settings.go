package pbrain

import (
	"fmt"
	"time"

	"github.com/kinrow/kinrow/protocol/gomocup"
)

// maxMillis bounds the INFO times kept (about 31 years), so durations never
// overflow.
const maxMillis = 1 << 40

// settings are the INFO values; each persists until changed.
type settings struct {
	turn      time.Duration
	turnSet   bool
	match     time.Duration // 0: no match limit
	left      time.Duration
	leftSet   bool
	leftAt    time.Duration // the brain's time used when time_left came
	maxMemory int64         // bytes; 0: no limit
	rule      gomocup.Rule
	gameType  int64
}

// set applies one INFO command; spent is the brain's time used so far in
// the match. Unknown keys are ignored (the protocol says so); a malformed
// value of a known key is an error, and the previous value stays.
func (s *settings) set(c gomocup.Command, spent time.Duration) error {
	ms := func() (time.Duration, error) {
		v, err := c.Int()
		if err != nil {
			return 0, fmt.Errorf("%w (milliseconds)", err)
		}
		return time.Duration(min(v, maxMillis)) * time.Millisecond, nil
	}
	var err error
	switch c.Key {
	case gomocup.InfoTimeoutTurn:
		var d time.Duration
		if d, err = ms(); err == nil {
			s.turn, s.turnSet = d, true
		}
	case gomocup.InfoTimeoutMatch:
		var d time.Duration
		if d, err = ms(); err == nil {
			s.match = d
		}
	case gomocup.InfoTimeLeft:
		var d time.Duration
		if d, err = ms(); err == nil {
			s.left, s.leftSet, s.leftAt = d, true, spent
		}
	case gomocup.InfoMaxMemory:
		var v int64
		if v, err = c.Int(); err == nil {
			s.maxMemory = v
		} else {
			err = fmt.Errorf("%w (bytes)", err)
		}
	case gomocup.InfoRule:
		var r gomocup.Rule
		if r, err = gomocup.ParseRule(c.Value); err == nil {
			s.rule = r
		}
	case gomocup.InfoGameType:
		var v int64
		if v, err = c.Int(); err == nil {
			s.gameType = v
		}
	}
	return err
}

// supported tells whether the brain can play the rule set at all: INFO
// rule 0, 1 or 4 (gomocup.Rule.Line). Whether a bot plays it is asked when
// a game starts (Brain.start).
func (s *settings) supported() error {
	_, err := s.rule.Line()
	return err
}

// limit is the time the brain may take for the next move (see the package
// comment): timeout_turn or its default, capped by a share of the match
// time left (but never below min(left/2, FastTurn), so a nearly spent clock
// still leaves the bot a moment).
func (s *settings) limit(cfg Config, spent time.Duration) time.Duration {
	l := cfg.DefaultTurn
	if s.turnSet {
		l = s.turn
		if l == 0 {
			l = cfg.FastTurn
		}
	}
	left, known := time.Duration(0), false
	switch {
	case s.leftSet:
		left, known = max(s.left-(spent-s.leftAt), 0), true
	case s.match > 0:
		left, known = max(s.match-spent, 0), true
	}
	if known {
		l = min(l, max(left/MatchShare, min(left/2, cfg.FastTurn)))
	}
	return max(l, time.Millisecond)
}
