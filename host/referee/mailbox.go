package referee

import (
	"context"
	"sync"
	"time"
)

// note is one notification for a player: a move was played, or taken back.
type note struct {
	what string // in words, for a forfeit's detail: "o's move 4"
	call func(ctx context.Context, p Player) error
}

// mailbox delivers the notifications of one side's player in order, on a
// goroutine of its own that runs only while some are pending, so the side
// that moved never waits for its opponent to take the move. The referee
// empties the mailbox (or gives up on it) before any other call to the
// player, so the player's calls stay strictly sequential: NewGame, Play…,
// Undo, GenMove.
//
// Only the goroutine that owns the Game posts, waits and stops; the
// delivering goroutine touches nothing but the player and the fields under
// mu.
type mailbox struct {
	p      Player
	ctx    context.Context // the deliveries' context: cancelled by stop, never by a caller
	cancel context.CancelFunc

	mu      sync.Mutex
	queue   []note
	running bool          // a goroutine is delivering
	current string        // what it is delivering
	idle    chan struct{} // closed while nothing is pending
	err     error         // the first failed delivery; later notes are dropped
	failed  string        // what failed
	late    string        // what the player did not take in time (it was killed)
}

func newMailbox(p Player) *mailbox {
	ctx, cancel := context.WithCancel(context.Background())
	idle := make(chan struct{})
	close(idle)
	return &mailbox{p: p, ctx: ctx, cancel: cancel, idle: idle}
}

// post queues n behind the pending notes and returns at once. A mailbox that
// failed, was given up on or was stopped drops it: the player has a verdict
// coming, or is not in the game any more.
func (b *mailbox) post(n note) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil || b.late != "" || b.ctx.Err() != nil {
		return
	}
	b.queue = append(b.queue, n)
	if !b.running {
		b.running = true
		b.idle = make(chan struct{})
		go b.deliver()
	}
}

func (b *mailbox) deliver() {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 || b.err != nil || b.ctx.Err() != nil {
			b.queue, b.current, b.running = nil, "", false
			close(b.idle)
			b.mu.Unlock()
			return
		}
		n := b.queue[0]
		b.queue = b.queue[1:]
		b.current = n.what
		b.mu.Unlock()
		err := n.call(b.ctx, b.p)
		b.mu.Lock()
		if err != nil && b.err == nil && b.ctx.Err() == nil {
			b.err, b.failed = err, n.what
		}
		b.mu.Unlock()
	}
}

// delivery is what a wait found.
type delivery struct {
	late    string // what the player was still taking when the wait ran out
	pending int    // how many notes were queued behind it
	failed  string // what the player failed to take, with err
	err     error
}

// wait waits at most d for every pending note to be delivered. Only a
// cancelled ctx is an error: it says nothing about the player.
func (b *mailbox) wait(ctx context.Context, d time.Duration) (delivery, error) {
	b.mu.Lock()
	idle, late := b.idle, b.late
	b.mu.Unlock()
	if late != "" {
		return delivery{late: late}, nil
	}
	select {
	case <-idle:
		return b.result(), nil
	default:
	}
	if err := ctx.Err(); err != nil {
		return delivery{}, err
	}
	timer := time.NewTimer(max(d, 0))
	defer timer.Stop()
	select {
	case <-idle:
		return b.result(), nil
	case <-ctx.Done():
		return delivery{}, ctx.Err()
	case <-timer.C:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.running { // it finished as the time ran out
		return delivery{failed: b.failed, err: b.err}, nil
	}
	b.late = b.current
	return delivery{late: b.current, pending: len(b.queue)}, nil
}

func (b *mailbox) result() delivery {
	b.mu.Lock()
	defer b.mu.Unlock()
	return delivery{failed: b.failed, err: b.err}
}

// busy reports whether notes are pending.
func (b *mailbox) busy() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.running
}

// stop drops the pending notes, cancels the one being delivered and waits
// for the delivering goroutine to return, at most d; a player that does not
// return from a cancelled call by then is killed.
func (b *mailbox) stop(d time.Duration) {
	b.cancel()
	b.mu.Lock()
	idle := b.idle
	b.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-idle:
	case <-timer.C:
		b.p.Kill()
	}
}
