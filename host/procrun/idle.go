package procrun

import (
	"time"
)

// Settle waits until every thread of the bot's leader process sleeps (two
// looks a millisecond apart, where the platform can tell: /proc on Linux;
// elsewhere it returns at once), at most d.
func (p *Process) Settle(d time.Duration) {
	deadline := time.Now().Add(d)
	var c idleChecker
	for calm := 0; calm < 2 && time.Now().Before(deadline); {
		if c.idle(p.pid) {
			calm++
		} else {
			calm = 0
		}
		if calm < 2 {
			time.Sleep(time.Millisecond)
		}
	}
}

// SuspendIdle suspends the bot like Suspend, but only once its threads
// sleep (Settle, at most wait), without blocking: a Resume or Suspend
// before then cancels it. A bot that has written its answer may still have
// work to finish (an engine's search thread writes its move and only then
// marks the search over), and one stopped in between may misread the next
// request. A failure to suspend goes to fail (if not nil).
func (p *Process) SuspendIdle(wait time.Duration, fail func(error)) {
	p.mu.Lock()
	if p.suspended || p.killed {
		p.mu.Unlock()
		return
	}
	p.gen++
	gen := p.gen
	p.mu.Unlock()
	go func() {
		p.Settle(wait)
		p.mu.Lock()
		if p.gen != gen {
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		if err := p.suspendGen(gen); err != nil && fail != nil {
			fail(err)
		}
	}()
}
