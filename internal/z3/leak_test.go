package z3

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rssBytes returns the resident set size from /proc/self/statm (0 if
// unavailable).
func rssBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// obligation runs one small proof obligation the way the kernel does:
// fresh solver, SMT-LIB2 text, check, model read-back on sat. It also
// builds a few terms through the API that become garbage. Every 50th
// obligation uses the default (combined) solver, the others the simple
// solver, which is about ten times cheaper on such small problems.
func obligation(t testing.TB, ctx *Context, i int, closeSolver bool) *Solver {
	s, err := ctx.NewSolver(SolverConfig{RLimit: 1_000_000, RandomSeed: 1, Simple: i%50 != 0})
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf(`(declare-sort T 0)
(declare-fun st () (Array T Int))
(declare-fun p () T)
(declare-fun x%d () Int)
(assert (> x%d %d))
(assert (= (select st p) (+ x%d %d)))
(assert (< (select st p) %d))`, i%97, i%97, i, i%97, i%13, 2*i+20-(i%3)*(i+30))
	if err := s.AssertSMTLIB2(text); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if r == Sat {
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			if _, err := m.EvalSMTLIB2("(select st p)", true); err != nil {
				t.Fatal(err)
			}
		}
		m.Close()
	}
	is, err := ctx.IntSort()
	if err != nil {
		t.Fatal(err)
	}
	y, _ := ctx.Const("y"+strconv.Itoa(i), is)
	n, _ := ctx.Int(int64(i))
	if _, err := ctx.Gt(y, n); err != nil {
		t.Fatal(err)
	}
	if closeSolver {
		s.Close()
	}
	return s
}

func TestLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("leak test skipped in -short mode")
	}
	const (
		total    = 5000
		warm     = 1000
		ctxEvery = 1000 // a fresh context every ctxEvery obligations
	)
	start := time.Now()
	ctx, err := NewContext(nil)
	if err != nil {
		t.Fatal(err)
	}
	var z3At, rssAt [2]uint64
	for i := 1; i <= total; i++ {
		obligation(t, ctx, i, true)
		// The second half of the run keeps one context for 2000
		// obligations, so releases inside a context are exercised too.
		if i%ctxEvery == 0 && i < 3000 {
			ctx.Close()
			if ctx, err = NewContext(nil); err != nil {
				t.Fatal(err)
			}
		}
		if i%500 == 0 && os.Getenv("LEAK_TRACE") != "" {
			runtime.GC()
			_, _ = ctx.True()
			t.Logf("i=%d z3=%d rss=%d", i, EstimatedAllocSize(), rssBytes())
		}
		if i == warm || i == total {
			runtime.GC()
			// Drain the release queue filled by cleanups.
			if _, err := ctx.True(); err != nil {
				t.Fatal(err)
			}
			k := 0
			if i == total {
				k = 1
			}
			z3At[k], rssAt[k] = EstimatedAllocSize(), rssBytes()
		}
	}
	ctx.Close()
	z3Growth := int64(z3At[1]) - int64(z3At[0])
	rssGrowth := int64(rssAt[1]) - int64(rssAt[0])
	t.Logf("%d obligations in %v; Z3 alloc %d -> %d (%+d bytes), RSS %d -> %d (%+d bytes)",
		total, time.Since(start).Round(time.Millisecond), z3At[0], z3At[1], z3Growth, rssAt[0], rssAt[1], rssGrowth)
	// 4000 obligations: a leak of one solver, model or parse vector each
	// would be hundreds of MB (an unclosed solver retains ~0.5 MB); allow
	// 4 MB of Z3 heap (the measured noise is under 1 MB) and 64 MB RSS drift.
	if z3Growth > 4<<20 {
		t.Errorf("Z3 allocation grew by %d bytes between obligation %d and %d", z3Growth, warm, total)
	}
	if rssAt[0] > 0 && rssGrowth > 64<<20 {
		t.Errorf("RSS grew by %d bytes between obligation %d and %d", rssGrowth, warm, total)
	}
}

// TestLeakDetectorIsSensitive shows the leak metric catches a real leak:
// obligations whose solvers are never closed (and stay reachable) make
// Z3's allocation grow well past the bound TestLeak applies.
func TestLeakDetectorIsSensitive(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	ctx := newCtx(t)
	before := EstimatedAllocSize()
	var kept []*Solver
	for i := 1; i <= 200; i++ {
		kept = append(kept, obligation(t, ctx, i, false))
	}
	growth := int64(EstimatedAllocSize()) - int64(before)
	t.Logf("200 unclosed solvers: Z3 allocation %+d bytes", growth)
	if growth < 4<<20 {
		t.Errorf("leaking 200 solvers grew Z3 allocation by only %d bytes; the leak bound would not catch it", growth)
	}
	for _, s := range kept {
		s.Close()
	}
}

// TestCleanupReleasesASTs checks that ASTs dropped by Go are dec_ref'd:
// after a GC their references are queued and released at the next
// operation on the context.
func TestCleanupReleasesASTs(t *testing.T) {
	ctx := newCtx(t)
	is := ok[Sort](t)(ctx.IntSort())
	func() {
		for i := 0; i < 1000; i++ {
			x := ok[AST](t)(ctx.Const(fmt.Sprintf("c%d", i), is))
			_ = ok[AST](t)(ctx.Add(x, x))
		}
	}()
	queued := 0
	for try := 0; try < 10 && queued < 2000; try++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		ctx.q.mu.Lock()
		queued = len(ctx.q.refs)
		ctx.q.mu.Unlock()
	}
	if queued < 2000 {
		t.Fatalf("only %d of 2000 dropped ASTs queued for release", queued)
	}
	if _, err := ctx.True(); err != nil {
		t.Fatal(err)
	}
	ctx.q.mu.Lock()
	left := len(ctx.q.refs)
	ctx.q.mu.Unlock()
	if left != 0 {
		t.Errorf("%d references left in the queue after an operation", left)
	}
	// The context is healthy after the releases (no double dec_ref).
	x := ok[AST](t)(ctx.Const("c1", is))
	if r, s := checkWith(t, ctx, ok[AST](t)(ctx.Gt(x, ok[AST](t)(ctx.Int(3))))); r != Sat {
		t.Errorf("check after releases: %v (%s)", r, s.ReasonUnknown())
	}
}

// TestConcurrent runs one context per goroutine, and several goroutines
// sharing one context, at the same time.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ctx, err := NewContext(nil)
			if err != nil {
				errs <- err
				return
			}
			defer ctx.Close()
			for i := 0; i < 40; i++ {
				s, err := ctx.NewSolver(SolverConfig{RLimit: 1_000_000, Simple: i%4 != 0})
				if err != nil {
					errs <- err
					return
				}
				if err := s.AssertSMTLIB2(fmt.Sprintf("(declare-fun x () Int)(assert (> x %d))(assert (< x %d))", i, i+g%2+1)); err != nil {
					errs <- err
					return
				}
				r, err := s.Check()
				want := Unsat
				if g%2 == 1 {
					want = Sat
				}
				if err != nil || r != want {
					errs <- fmt.Errorf("goroutine %d obligation %d: %v %v", g, i, r, err)
				}
				s.Close()
			}
		}(g)
	}
	shared := newCtx(t)
	is := ok[Sort](t)(shared.IntSort())
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				x, err := shared.Const(fmt.Sprintf("v%d_%d", g, i), is)
				if err != nil {
					errs <- err
					return
				}
				y, err := shared.Add(x, x)
				if err != nil {
					errs <- err
					return
				}
				if y.String() == "" || y.NumArgs() != 2 {
					errs <- fmt.Errorf("bad term %v", y)
					return
				}
				if i%50 == 0 {
					runtime.GC()
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

const benchText = `(declare-fun x () Int)(declare-fun y () Int)
(assert (> x 0))(assert (< y 10))(assert (= (+ x y) 15))(assert (> (- x y) 3))`

// benchCheck measures one small obligation: fresh solver, SMT-LIB2 text,
// Check, Close.
func benchCheck(b *testing.B, cfg SolverConfig) {
	ctx, err := NewContext(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := ctx.NewSolver(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.AssertSMTLIB2(benchText); err != nil {
			b.Fatal(err)
		}
		if r, err := s.Check(); err != nil || r != Sat {
			b.Fatal(r, err)
		}
		s.Close()
	}
}

func BenchmarkSmallCheck(b *testing.B) {
	benchCheck(b, SolverConfig{RLimit: 1_000_000, RandomSeed: 1})
}

func BenchmarkSmallCheckSimple(b *testing.B) {
	benchCheck(b, SolverConfig{RLimit: 1_000_000, RandomSeed: 1, Simple: true})
}

func BenchmarkParseSMTLIB2(b *testing.B) {
	ctx, err := NewContext(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ctx.ParseSMTLIB2(benchText, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildTerm(b *testing.B) {
	ctx, err := NewContext(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	is, _ := ctx.IntSort()
	x, _ := ctx.Const("x", is)
	one, _ := ctx.Int(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ctx.Add(x, one); err != nil {
			b.Fatal(err)
		}
	}
}

// TestUnclosedObjectsAreCollected checks the safety net: solvers, models
// and whole contexts that are dropped without Close are released once the
// Go garbage collector finds them unreachable.
func TestUnclosedObjectsAreCollected(t *testing.T) {
	settle := func(ctx *Context) uint64 {
		for i := 0; i < 5; i++ {
			runtime.GC()
			time.Sleep(20 * time.Millisecond)
			if ctx != nil {
				_, _ = ctx.True() // drain the release queue
			}
		}
		return EstimatedAllocSize()
	}
	// release waits, collecting, until the estimate is at most limit or
	// ten seconds have passed: the cleanups run on their own goroutine,
	// and deleting a context with its solvers takes a while on a loaded
	// machine. It returns the last estimate.
	release := func(ctx *Context, limit uint64) uint64 {
		deadline := time.Now().Add(10 * time.Second)
		for {
			after := settle(ctx)
			if after <= limit || time.Now().After(deadline) {
				return after
			}
		}
	}
	ctx := newCtx(t)
	base := settle(ctx)
	func() {
		for i := 1; i <= 100; i++ {
			s := obligation(t, ctx, i, false)
			_, _ = s.Model() // an unclosed model too (none after unsat)
		}
	}()
	peak := EstimatedAllocSize()
	if peak < base+(4<<20) {
		t.Fatalf("100 solvers allocated only %d bytes; test is not measuring anything", peak-base)
	}
	after := release(ctx, base+(peak-base)/4)
	t.Logf("solvers: base %d, peak %d, after GC %d", base, peak, after)
	if after > base+(peak-base)/4 {
		t.Errorf("dropped solvers not released: base %d, peak %d, after GC %d", base, peak, after)
	}

	base = settle(nil)
	func() {
		for i := 0; i < 10; i++ {
			c, err := NewContext(nil)
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j < 10; j++ {
				obligation(t, c, i*10+j+1, false)
			}
		}
	}()
	peak = EstimatedAllocSize()
	after = release(nil, base+(peak-base)/4)
	t.Logf("contexts: base %d, peak %d, after GC %d", base, peak, after)
	if after > base+(peak-base)/4 {
		t.Errorf("dropped contexts not released: base %d, peak %d, after GC %d", base, peak, after)
	}
}

// TestCloseReleasesLiveHandles checks the count of the references that
// live handles hold (releaseQueue.live): each handle adds one, a handle
// the collector drops takes its one away once the queue is drained, and
// Close releases the rest before it deletes the context, after which the
// handles are inert and their cleanups release nothing twice.
func TestCloseReleasesLiveHandles(t *testing.T) {
	ctx := newCtx(t)
	held := func() int {
		ctx.q.mu.Lock()
		defer ctx.q.mu.Unlock()
		n := 0
		for _, k := range ctx.q.live {
			n += k
		}
		return n
	}
	b, err := ctx.BoolSort()
	if err != nil {
		t.Fatal(err)
	}
	base := held()
	var kept []AST
	for i := 0; i < 10; i++ {
		x, err := ctx.Const(fmt.Sprintf("x%d", i), b)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, x)
		func() { // a second handle of the same term, dropped
			y, err := ctx.Const(fmt.Sprintf("x%d", i), b)
			if err != nil || !y.Equal(x) {
				t.Fatalf("%v %v", y, err)
			}
		}()
	}
	if n := held(); n != base+20 {
		t.Fatalf("%d references held after 20 handles, want %d", n, base+20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for held() > base+10 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		_, _ = ctx.True() // drains the queue (and holds one more, dropped)
	}
	if n := held(); n > base+11 {
		t.Errorf("%d references held once the dropped handles were collected, want at most %d", n, base+11)
	}
	ctx.Close()
	if ctx.q.live != nil || !ctx.q.closed {
		t.Errorf("after Close: live %v, closed %v", ctx.q.live, ctx.q.closed)
	}
	if _, err := kept[0].Sort(); err == nil {
		t.Error("a handle of a closed context still works")
	}
	kept = nil
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if n := len(ctx.q.take()); n != 0 {
		t.Errorf("%d references queued after Close", n)
	}
}
