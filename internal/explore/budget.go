// This file implements the resource budget of a search: a memory limit, a
// deadline and cancellation, checked cheaply enough to be asked at every
// step.

package explore

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"ladder/internal/safeio"
)

// Budget bounds the resources of a search. Reaching a bound stops the
// search cleanly: the result is incomplete and its Limit says which bound
// was reached; the states found so far were all checked.
type Budget struct {
	// MaxMemory is the memory the search may use, in bytes, as the Go
	// runtime accounts it (heap and stacks obtained from the system and
	// not returned), plus the allocation the store is about to make;
	// 0: no limit.
	MaxMemory int64
	// Timeout is the wall-clock time the search may take; 0: no limit.
	Timeout time.Duration
	// Context, when done, stops the search (an interrupt); nil: never.
	Context context.Context
}

// Meter watches a Budget during one search. Its zero value (no budget)
// never stops anything. It is not safe for concurrent use.
type Meter struct {
	b        Budget
	start    time.Time
	calls    uint
	nextMem  time.Time
	mem      int64 // the last memory sample
	peak     int64 // the largest sample
	exceeded string
	// for Over, which workers call concurrently
	shared struct {
		mem  atomic.Int64 // the last sample Over took
		next atomic.Int64 // when Over samples again, in UnixNano
	}
}

// memEvery is the interval between two samples of the runtime's memory
// statistics (runtime.ReadMemStats stops the world briefly).
const memEvery = 50 * time.Millisecond

// NewMeter returns a meter of b, started now.
func NewMeter(b Budget) *Meter {
	m := &Meter{b: b, start: time.Now()}
	m.sample()
	return m
}

func (m *Meter) sample() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.mem = int64(ms.Sys - ms.HeapReleased)
	m.peak = max(m.peak, m.mem)
	m.nextMem = time.Now().Add(memEvery)
}

// Over reports whether the memory limit is exceeded, or the deadline or
// the context reached, as far as a cheap look tells; unlike the other
// methods it is safe for concurrent use, so that workers computing
// successors can stop early (their buffers can outgrow everything else).
// The caller then calls Check, which records the limit.
func (m *Meter) Over() bool {
	if m == nil {
		return false
	}
	now := time.Now()
	if c := m.b.Context; c != nil && c.Err() != nil {
		return true
	}
	if m.b.Timeout > 0 && now.Sub(m.start) >= m.b.Timeout {
		return true
	}
	if m.b.MaxMemory <= 0 {
		return false
	}
	next := m.shared.next.Load()
	if now.UnixNano() >= next && m.shared.next.CompareAndSwap(next, now.Add(memEvery/2).UnixNano()) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		m.shared.mem.Store(int64(ms.Sys - ms.HeapReleased))
	}
	return m.shared.mem.Load() > m.b.MaxMemory
}

// Stop records that the search stops at a bound that Over saw, and returns
// the text of the bound: the one Check finds, or, when the bound is no
// longer visible (the collector freed memory since), the memory limit with
// the sample Over saw.
func (m *Meter) Stop() string {
	if why := m.Check(0); why != "" {
		return why
	}
	mem := m.shared.mem.Load()
	m.peak = max(m.peak, mem)
	m.exceeded = fmt.Sprintf("memory limit %s (%s in use)", safeio.FormatBytes(m.b.MaxMemory), safeio.FormatBytes(mem))
	return m.exceeded
}

// Memory returns the memory in use at the last sample, and the largest
// sample.
func (m *Meter) Memory() (last, peak int64) {
	if m == nil {
		return 0, 0
	}
	return m.mem, m.peak
}

// Elapsed returns the time since the meter started.
func (m *Meter) Elapsed() time.Duration {
	if m == nil {
		return 0
	}
	return time.Since(m.start)
}

// Exceeded reports which bound of the budget is reached, as the text of a
// Result's Limit ("memory limit 1 GiB"), or "". pending is memory about to
// be allocated (a growing table), counted against the limit. The clock and
// the context are looked at every 64 calls, the memory at most every
// memEvery, so a call costs a few nanoseconds; a pending allocation that
// the last memory sample says would pass the limit is looked at at once.
// Once a bound is reached every later call reports it.
func (m *Meter) Exceeded(pending int64) string {
	if m == nil || m.exceeded != "" {
		return m.limitText()
	}
	m.calls++
	if m.calls&63 != 0 && (pending == 0 || m.b.MaxMemory <= 0 || m.mem+pending <= m.b.MaxMemory) {
		return ""
	}
	return m.Check(pending)
}

// Check is Exceeded without the sampling of calls: it looks at the clock
// and the context now, and at the memory if memEvery has passed.
func (m *Meter) Check(pending int64) string {
	if m == nil || m.exceeded != "" {
		return m.limitText()
	}
	now := time.Now()
	if c := m.b.Context; c != nil && c.Err() != nil {
		m.exceeded = "interrupt"
		if cause := context.Cause(c); cause != nil && cause != context.Canceled {
			m.exceeded = cause.Error()
		}
		return m.exceeded
	}
	if m.b.Timeout > 0 && now.Sub(m.start) >= m.b.Timeout {
		m.exceeded = fmt.Sprintf("time limit %v", m.b.Timeout)
		return m.exceeded
	}
	if m.b.MaxMemory > 0 {
		if !now.Before(m.nextMem) {
			m.sample()
		}
		if m.mem+pending > m.b.MaxMemory {
			m.sample() // the estimate may be stale: look again before stopping
			if m.mem+pending > m.b.MaxMemory {
				m.exceeded = fmt.Sprintf("memory limit %s (%s in use", safeio.FormatBytes(m.b.MaxMemory), safeio.FormatBytes(m.mem))
				if pending > 0 {
					m.exceeded += fmt.Sprintf(", %s more needed", safeio.FormatBytes(pending))
				}
				m.exceeded += ")"
			}
		}
	}
	return m.exceeded
}

func (m *Meter) limitText() string {
	if m == nil {
		return ""
	}
	return m.exceeded
}

// Reached reports whether a bound of the budget stopped the search.
func (m *Meter) Reached() bool { return m != nil && m.exceeded != "" }

// DefaultMaxMemory returns the default memory budget of a search: half of
// the physical memory, or of the memory available when that is less than
// two thirds of it (other programs run too); 4 GiB when the amount cannot
// be read (outside Linux). Under a limit on the address space (`ulimit -v`)
// it is at most a third of that limit: the Go runtime reserves address
// space beyond the memory it uses, and a search that reached the limit
// would be aborted by the runtime instead of stopping with its figures.
func DefaultMaxMemory() int64 {
	return defaultMaxMemory(physicalMemory, addressSpaceLimit)
}

func defaultMaxMemory(physical func() (int64, int64), addressSpace func() int64) int64 {
	total, avail := physical()
	var m int64
	switch {
	case total <= 0:
		m = 4 << 30
	case avail > 0 && avail < total*2/3:
		m = max(avail*3/4, 256<<20)
	default:
		m = total / 2
	}
	if as := addressSpace(); as > 0 {
		m = min(m, max(as/3, 64<<20))
	}
	return m
}

// physicalMemory reads MemTotal and MemAvailable from /proc/meminfo, in
// bytes (0 when unknown).
func physicalMemory() (total, avail int64) {
	data, err := safeio.ReadFile("/proc/meminfo", 1<<20)
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		if len(f) > 1 && f[1] == "kB" {
			n *= 1024
		}
		switch name {
		case "MemTotal":
			total = n
		case "MemAvailable":
			avail = n
		}
	}
	return total, avail
}

// Reporter calls a progress function at most once a second with the
// figures of a search and the memory its Meter sees. The explorer and the
// cross-checker share it.
type Reporter struct {
	f     func(Progress)
	meter *Meter
	last  time.Time
	every time.Duration
	phase string
}

// SetEvery sets the least time between two calls (a second by default).
func (r *Reporter) SetEvery(d time.Duration) { r.every = d }

// SetPhase names what the search reports on (Progress.Phase) from now on.
func (r *Reporter) SetPhase(phase string) { r.phase = phase }

// NewReporter returns a Reporter calling f (nil: none) for a search
// measured by m.
func NewReporter(f func(Progress), m *Meter) *Reporter {
	return &Reporter{f: f, meter: m, last: time.Now(), every: time.Second}
}

// Report calls the progress function if a second has passed since the
// last call.
func (r *Reporter) Report(states int, transitions int64, depth, queued int) {
	if r.f == nil {
		return
	}
	now := time.Now()
	if now.Sub(r.last) < r.every {
		return
	}
	r.last = now
	mem, _ := r.meter.Memory()
	r.f(Progress{Phase: r.phase, States: states, Transitions: transitions, Depth: depth, Queued: queued, Elapsed: r.meter.Elapsed(), Memory: mem})
}
