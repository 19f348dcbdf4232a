package explore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A search stops cleanly at its memory budget, deadline or interrupt: the
// result is incomplete, Exhausted, and says which bound was reached; with
// several workers too (the workers stop their successor enumeration).
func TestBudget(t *testing.T) {
	a := loadTMS2(t)
	inst := bounds(t, "T=3,L=2,V=2")
	cancelled, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupt (SIGINT)"))
	for _, tt := range []struct {
		name   string
		budget Budget
		limit  string
	}{
		{"memory", Budget{MaxMemory: 1 << 20}, "memory limit 1 MiB ("},
		{"time", Budget{Timeout: time.Nanosecond}, "time limit 1ns"},
		{"interrupt", Budget{Context: cancelled}, "interrupt (SIGINT)"},
	} {
		for _, workers := range []int{1, 2} {
			done := make(chan *Result, 1)
			go func() {
				res, err := Explore(a, Config{Instance: inst, Workers: workers, Budget: tt.budget})
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			select {
			case res := <-done:
				if res == nil {
					continue
				}
				if res.Complete || !res.Exhausted || !strings.HasPrefix(res.Limit, tt.limit) || res.PeakMemoryBytes <= 0 {
					t.Errorf("%s, %d workers: complete=%v exhausted=%v limit=%q peak=%d", tt.name, workers, res.Complete, res.Exhausted, res.Limit, res.PeakMemoryBytes)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s, %d workers: the search did not stop within a minute", tt.name, workers)
			}
		}
	}
	// the bounds of Config.MaxStates are not a budget
	res, err := Explore(a, Config{Instance: inst, MaxStates: 10})
	if err != nil || res.Exhausted {
		t.Errorf("state limit counted as exhausted: %+v, %v", res, err)
	}
}

func TestDefaultMaxMemory(t *testing.T) {
	if m := DefaultMaxMemory(); m < 64<<20 {
		t.Errorf("DefaultMaxMemory() = %d", m)
	}
	const gib = 1 << 30
	phys := func(total, avail int64) func() (int64, int64) {
		return func() (int64, int64) { return total, avail }
	}
	as := func(n int64) func() int64 { return func() int64 { return n } }
	for _, c := range []struct {
		total, avail, as, want int64
	}{
		{16 * gib, 15 * gib, 0, 8 * gib},       // half of the machine
		{16 * gib, 4 * gib, 0, 3 * gib},        // three quarters of what is available
		{0, 0, 0, 4 * gib},                     // unknown
		{16 * gib, 15 * gib, 3 * gib, 1 * gib}, // a third of ulimit -v
		{16 * gib, 15 * gib, 60 * gib, 8 * gib},
		{16 * gib, 15 * gib, 1 << 20, 64 << 20},
	} {
		if got := defaultMaxMemory(phys(c.total, c.avail), as(c.as)); got != c.want {
			t.Errorf("total %d, avail %d, address space %d: got %d, want %d", c.total, c.avail, c.as, got, c.want)
		}
	}
}
