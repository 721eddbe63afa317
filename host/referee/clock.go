package referee

import "time"

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
		return s.main
	}
	return s.byo
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
	s.byo -= d
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
