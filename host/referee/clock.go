package referee

import (
	"errors"
	"fmt"
	"time"
)

// MaxTime is the longest duration a clock takes (move time, main time,
// byo-yomi period, increment, time left): 10,000,000 s, about 115 days.
// Sums of these stay far from time.Duration's limit.
const MaxTime = 10_000_000 * time.Second

// MaxStones is the most stones a byo-yomi period takes.
const MaxStones = 1_000_000

// ErrBadTime is wrapped by the errors for times and stone counts a clock
// does not take.
var ErrBadTime = errors.New("bad time")

// checkTime refuses a duration outside 0..MaxTime.
func checkTime(what string, d time.Duration) error {
	if d < 0 || d > MaxTime {
		return fmt.Errorf("%w: %s %v out of range: from 0 to %d s", ErrBadTime, what, d, MaxTime/time.Second)
	}
	return nil
}

// checkStones refuses a stone count outside 0..MaxStones.
func checkStones(what string, n int) error {
	if n < 0 || n > MaxStones {
		return fmt.Errorf("%w: %s %d out of range: from 0 to %d", ErrBadTime, what, n, MaxStones)
	}
	return nil
}

// Clock is the time control of a game. With Main and Byo zero, every move
// has MoveTime; otherwise GTP's Canadian byo-yomi applies: Main for the game,
// then Byo for every Stones moves. Increment (Fischer) is added to the main
// time after every move, as in cutechess-cli's "10+0.1".
type Clock struct {
	MoveTime  time.Duration
	Main      time.Duration
	Byo       time.Duration
	Stones    int
	Increment time.Duration
}

// Validate refuses a clock the referee cannot run: a negative duration or
// one past MaxTime, a stone count outside 0..MaxStones.
func (c Clock) Validate() error {
	return errors.Join(checkTime("move time", c.MoveTime), checkTime("main time", c.Main),
		checkTime("byo-yomi time", c.Byo), checkStones("byo-yomi stones", c.Stones),
		checkTime("increment", c.Increment))
}

// Timed reports whether the clock runs (time_settings given), rather than a
// fixed time per move.
func (c Clock) Timed() bool { return c.Main > 0 || c.Byo > 0 }

// sideClock is what one side has left under a timed clock.
type sideClock struct {
	main       time.Duration
	byo        time.Duration // left in the current period
	stonesLeft int           // 0 while in main time
}

func (s *sideClock) reset(c Clock) {
	*s = sideClock{main: c.Main}
	if c.Main == 0 && c.Byo > 0 {
		s.byo, s.stonesLeft = c.Byo, c.Stones
	}
}

// budget is the time the side may use for its next move.
func (s *sideClock) budget(c Clock) time.Duration {
	if !c.Timed() {
		return c.MoveTime
	}
	if s.stonesLeft == 0 { // main time
		if c.Byo > 0 && c.Stones > 0 {
			return s.main + c.Byo
		}
		return max(s.main, 0)
	}
	return max(s.byo, 0)
}

// spend charges a move's time to the side's clock.
func (s *sideClock) spend(c Clock, d time.Duration) {
	if !c.Timed() {
		return
	}
	if s.stonesLeft == 0 {
		if d <= s.main {
			s.main += c.Increment - d
			return
		}
		d -= s.main
		s.main = 0
		if c.Byo == 0 || c.Stones == 0 {
			return
		}
		s.byo, s.stonesLeft = c.Byo, c.Stones
	}
	s.byo = max(s.byo-d, 0) // an answer in the grace overran it
	s.stonesLeft--
	if s.stonesLeft == 0 {
		s.byo, s.stonesLeft = c.Byo, c.Stones
	}
}

// set applies GTP's time_left: time left in the period, stones left in it
// (0 while in main time).
func (s *sideClock) set(left time.Duration, stones int) {
	if stones == 0 {
		s.main, s.byo, s.stonesLeft = left, 0, 0
		return
	}
	s.main, s.byo, s.stonesLeft = 0, left, stones
}
