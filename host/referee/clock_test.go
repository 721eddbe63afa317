package referee

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	c := Clock{MoveTime: time.Second, Main: 10 * time.Second, Byo: 2 * time.Second, Stones: 2}
	var s sideClock
	s.reset(c)
	if b := s.budget(c); b != 12*time.Second {
		t.Errorf("budget in main time = %v", b)
	}
	s.spend(c, 11*time.Second) // main gone, 1 s into the first byo-yomi stone
	if s.main != 0 || s.stonesLeft != 1 || s.byo != time.Second {
		t.Errorf("after overrun: %+v", s)
	}
	s.spend(c, 500*time.Millisecond) // period complete: reset
	if s.stonesLeft != 2 || s.byo != 2*time.Second {
		t.Errorf("after the period: %+v", s)
	}
	inc := Clock{Main: time.Second, Increment: 100 * time.Millisecond}
	s.reset(inc)
	s.spend(inc, 300*time.Millisecond)
	if s.budget(inc) != 800*time.Millisecond {
		t.Errorf("after a move with increment: %v", s.budget(inc))
	}
	fixed := Clock{MoveTime: 300 * time.Millisecond}
	s.reset(fixed)
	if s.budget(fixed) != 300*time.Millisecond {
		t.Errorf("fixed move time budget = %v", s.budget(fixed))
	}
}
