package procrun

import (
	"time"
)

// settleCap bounds Settle's wait in wall time, in multiples of its CPU
// wait: a bot given less than a quarter of a core is not waited for to the
// end of its CPU wait.
const settleCap = 4

// Settle waits until every thread of the bot's leader process sleeps (two
// looks a millisecond apart, where the platform can tell: /proc on Linux;
// elsewhere it returns at once), at most d of the bot's own CPU time where
// it is measured (CPU: a loaded machine that gives the bot a third of a
// core does not cut its wait to a third; a Rapfi-like engine busy for 10
// ms after its move got 25 ms of wall time, too little under load, and
// took the next command for junk) and settleCap*d of wall time; at most d
// of wall time where its CPU time is not measured.
func (p *Process) Settle(d time.Duration) {
	start := time.Now()
	cpu0, byCPU := p.CPU()
	end := start.Add(d)
	if byCPU {
		end = start.Add(settleCap * d)
	}
	var c idleChecker
	for calm := 0; calm < 2 && time.Now().Before(end); {
		if byCPU {
			if cpu, ok := p.CPU(); ok && cpu-cpu0 >= d {
				return
			}
		}
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
	gen, ok := p.pendingSuspend()
	if !ok {
		return
	}
	go func() {
		p.Settle(wait)
		if p.stale(gen) {
			return
		}
		if err := p.suspendGen(gen); err != nil && fail != nil {
			fail(err)
		}
	}()
}

// pendingSuspend starts a new generation for a suspension to come (a
// later Suspend, Resume or SuspendIdle cancels it); false when the bot is
// suspended or killed already.
func (p *Process) pendingSuspend() (gen uint64, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.suspended || p.killed {
		return 0, false
	}
	p.gen++
	return p.gen, true
}

// stale reports whether the suspension of generation gen was cancelled,
// or the bot meanwhile suspended or killed.
func (p *Process) stale(gen uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen != gen || p.suspended || p.killed
}

// busyPollMax bounds the interval between SuspendBusy's looks at the bot's
// CPU time: what a bot thinking on its opponent's time gets before it is
// suspended is at most its budget plus this much on each core it keeps
// busy.
const busyPollMax = 8 * time.Millisecond

// SuspendBusy suspends the bot like Suspend once it has used more than
// budget of CPU time (with everything it started) since the call, looking
// every few milliseconds; it does not block, and a Resume or Suspend
// cancels it. A bot that stays idle until its next request is never
// suspended at all: the freeze and the thaw, kernel work on each of its
// threads that cost a fast game more than its moves, are paid only by a
// bot that thinks when it should not. Where the bot's CPU time is not
// measured it is SuspendIdle(wait, fail).
func (p *Process) SuspendBusy(budget, wait time.Duration, fail func(error)) {
	cpu0, ok := p.CPU()
	if !ok {
		p.SuspendIdle(wait, fail)
		return
	}
	gen, ok := p.pendingSuspend()
	if !ok {
		return
	}
	go func() {
		for interval := time.Millisecond; ; interval = min(2*interval, busyPollMax) {
			time.Sleep(interval)
			if p.stale(gen) {
				return
			}
			if cpu, ok := p.CPU(); !ok || cpu-cpu0 > budget {
				if err := p.suspendGen(gen); err != nil && fail != nil {
					fail(err)
				}
				return
			}
		}
	}()
}
