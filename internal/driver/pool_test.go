package driver

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestRunPoolEveryItemOnce(t *testing.T) {
	for _, workers := range []int{1, 3, 8, 100} {
		const n = 257
		var hits [n]atomic.Int32
		var opened, released atomic.Int32
		err := runPool(context.Background(), workers, n,
			func() (*int, error) { opened.Add(1); return new(int), nil },
			func(*int) { released.Add(1) },
			func(s *int, i int) { *s++; hits[i].Add(1) })
		if err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		for i := range hits {
			if got := hits[i].Load(); got != 1 {
				t.Fatalf("workers=%d: item %d processed %d times; want 1", workers, i, got)
			}
		}
		if o, r := opened.Load(), released.Load(); o != r || int(o) > min(workers, n) {
			t.Errorf("workers=%d: opened %d, released %d states; want equal and <= %d", workers, o, r, min(workers, n))
		}
	}
}

func TestRunPoolStatePerWorker(t *testing.T) {
	// No two goroutines may share a state: each state counts its own
	// items without synchronisation, and the race detector would object.
	var mu sync.Mutex
	var states []*int
	err := runPool(context.Background(), 4, 1000,
		func() (*int, error) {
			s := new(int)
			mu.Lock()
			states = append(states, s)
			mu.Unlock()
			return s, nil
		},
		func(*int) {},
		func(s *int, i int) { *s++ })
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range states {
		total += *s
	}
	if total != 1000 {
		t.Errorf("total items = %d; want 1000", total)
	}
}

func TestRunPoolOpenError(t *testing.T) {
	boom := errors.New("no context")
	err := runPool(context.Background(), 2, 10,
		func() (int, error) { return 0, boom },
		func(int) {},
		func(int, int) { t.Error("work ran without a state") })
	if !errors.Is(err, boom) {
		t.Errorf("err = %v; want %v", err, boom)
	}
}

func TestRunPoolCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int32
	err := runPool(ctx, 1, 100,
		func() (int, error) { return 0, nil },
		func(int) {},
		func(_ int, i int) {
			done.Add(1)
			if i == 4 {
				cancel()
			}
		})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want context.Canceled", err)
	}
	if got := done.Load(); got != 5 {
		t.Errorf("processed %d items after cancel at the 5th; want 5", got)
	}
}
