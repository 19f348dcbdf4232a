// This file implements Options.MaxMemory: a watch on the memory of the
// whole process (the solver's included) that stops inference when it
// passes the limit.

package infer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"ladder/internal/safeio"
)

// ErrLimit wraps the error of a run stopped at Options.MaxMemory; the
// Result returned with it has the phases done so far and says why in
// Stopped.
var ErrLimit = errors.New("stopped at a limit")

// memoryWatch samples the memory of the process and cancels a context
// when it passes limit.
type memoryWatch struct {
	limit  int64
	mu     sync.Mutex
	reason string
	peak   int64
}

// watchMemory returns ctx with a cancellation when the process's memory
// passes limit, looked at every interval, the watch, and a function that
// ends the watch.
func watchMemory(ctx context.Context, limit int64, every time.Duration) (context.Context, *memoryWatch, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &memoryWatch{limit: limit}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if why := w.sample(); why != "" {
				cancel(errors.New(why))
				return
			}
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return ctx, w, func() {
		close(done)
		wg.Wait()
		cancel(nil)
	}
}

// sample looks at the memory once and returns the reason to stop, or "".
func (w *memoryWatch) sample() string {
	mem := processMemory()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.peak = max(w.peak, mem)
	if w.reason == "" && mem > w.limit {
		w.reason = fmt.Sprintf("memory limit %s (%s in use)", safeio.FormatBytes(w.limit), safeio.FormatBytes(mem))
	}
	return w.reason
}

// reached returns why the watch stopped the run, or "" (also for a nil
// watch).
func (w *memoryWatch) reached() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reason
}

// processMemory returns the resident memory of the process, which counts
// the solver's memory as well as Go's; where that cannot be read (outside
// Linux), the memory the Go runtime holds.
func processMemory() int64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 2 {
			if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return pages * int64(os.Getpagesize())
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Sys - ms.HeapReleased)
}
