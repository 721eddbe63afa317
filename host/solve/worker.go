package solve

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kinrow/kinrow/protocol/botapi"
)

// worker is one bot process solving over its own stream.
type worker struct {
	stream botapi.SolveStream
	window chan struct{} // a slot per position in flight
}

// take waits for work's next requests and for free slots for them: false
// when ctx ends first or work is closed.
func (wk *worker) take(ctx context.Context, work <-chan []botapi.SolveRequest) ([]botapi.SolveRequest, bool) {
	var reqs []botapi.SolveRequest
	select {
	case r, ok := <-work:
		if !ok {
			return nil, false
		}
		reqs = r
	case <-ctx.Done():
		return nil, false
	}
	return reqs, wk.acquire(ctx, len(reqs))
}

// acquire waits for n free slots: false when ctx ends first.
func (wk *worker) acquire(ctx context.Context, n int) bool {
	for range n {
		select {
		case wk.window <- struct{}{}:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// send sends the requests of work: to a bot that takes batches, a message
// takes what is ready as the free slots allow, in messages of at most
// MaxBatch positions; to another, one request a message.
func (wk *worker) send(ctx context.Context, work <-chan []botapi.SolveRequest, failed chan<- error) {
	defer wk.stream.CloseSend()
	bs, batches := wk.stream.(botapi.BatchSolveStream)
	var batch []botapi.SolveRequest
	for {
		reqs, ok := wk.take(ctx, work)
		if !ok {
			return
		}
		if !batches {
			for _, r := range reqs {
				if err := wk.stream.Send(r); err != nil {
					failed <- fmt.Errorf("the bot stopped taking positions: %w", err)
					return
				}
			}
			continue
		}
		batch = append(batch[:0], reqs...)
	more: // a worker of many takes chunks of one: join what else is ready
		for len(batch) < MaxBatch && len(wk.window) < cap(wk.window) {
			select {
			case reqs, ok := <-work:
				if !ok {
					break more
				}
				if !wk.acquire(ctx, len(reqs)) {
					return
				}
				batch = append(batch, reqs...)
			default:
				break more
			}
		}
		for b := batch; len(b) > 0; {
			n := min(len(b), MaxBatch)
			if err := bs.SendBatch(b[:n]); err != nil {
				failed <- fmt.Errorf("the bot stopped taking positions: %w", err)
				return
			}
			b = b[n:]
		}
	}
}

// receive passes on the replies as they come, each freeing a slot.
func (wk *worker) receive(ctx context.Context, replies chan<- []botapi.SolveReply, failed chan<- error) {
	bs, batches := wk.stream.(botapi.BatchSolveStream)
	for {
		var rs []botapi.SolveReply
		var err error
		if batches {
			rs, err = bs.RecvBatch()
		} else {
			var r botapi.SolveReply
			if r, err = wk.stream.Recv(); err == nil {
				rs = []botapi.SolveReply{r}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				failed <- fmt.Errorf("the bot stopped answering: %w", err)
			}
			return
		}
		for range rs {
			<-wk.window
		}
		select {
		case replies <- rs:
		case <-ctx.Done():
			return
		}
	}
}
