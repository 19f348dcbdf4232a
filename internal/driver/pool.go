// This file implements the worker pool: a fixed number of goroutines, each
// with its own private state (one Z3 context per worker), taking work items
// by index so that results land in a slice in input order, never in
// completion order.

package driver

import (
	"context"
	"sync"
	"sync/atomic"
)

// runPool calls work(state, i) for every i in [0, n) on at most workers
// goroutines. Each goroutine obtains its state from open before its first
// item and passes it to release when it runs out of work. If open fails the
// goroutine does no work and the first such error is returned once the
// others have finished; items left unprocessed are those no goroutine could
// take. A cancelled ctx stops the hand-out of new items.
func runPool[S any](ctx context.Context, workers, n int, open func() (S, error), release func(S), work func(S, int)) error {
	if n == 0 {
		return nil
	}
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := open()
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				return
			}
			defer release(s)
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				work(s, i)
			}
		}()
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil && int(next.Load()) < n {
		return ctx.Err()
	}
	return firstErr
}
