package procrun

import (
	"sync"
	"testing"
)

type closeCounter struct {
	mu     *sync.Mutex
	closed map[int]int
	id     int
	// gate makes every Close wait until all have started: CloseAll must
	// close side by side, or this deadlocks (the test times out).
	gate *sync.WaitGroup
}

func (c closeCounter) Close() {
	c.gate.Done()
	c.gate.Wait()
	c.mu.Lock()
	c.closed[c.id]++
	c.mu.Unlock()
}

// CloseAll closes every item exactly once, all at once.
func TestCloseAll(t *testing.T) {
	for _, n := range []int{0, 1, 5} {
		var mu sync.Mutex
		var gate sync.WaitGroup
		gate.Add(n)
		closed := map[int]int{}
		items := make([]closeCounter, n)
		for i := range items {
			items[i] = closeCounter{mu: &mu, closed: closed, id: i, gate: &gate}
		}
		CloseAll(items)
		if len(closed) != n {
			t.Fatalf("%d items: %d closed", n, len(closed))
		}
		for id, k := range closed {
			if k != 1 {
				t.Errorf("%d items: item %d closed %d times", n, id, k)
			}
		}
	}
}
