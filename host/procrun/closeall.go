package procrun

import "sync"

// CloseAll closes every item at once and returns when all are closed: each
// Close of a bot is bounded by its kill timeout, and closing them side by
// side keeps a host with many bots from waiting for the sum of those
// bounds. The runners use it to end every bot still running.
func CloseAll[T interface{ Close() }](items []T) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() { defer wg.Done(); it.Close() }()
	}
	wg.Wait()
}
