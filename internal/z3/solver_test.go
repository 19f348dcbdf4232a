package z3

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPushPopReset(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	x := a(ctx.Const("x", is))
	zero := a(ctx.Int(0))
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	check := func(want Result) {
		t.Helper()
		r, err := s.Check()
		if err != nil {
			t.Fatal(err)
		}
		wantResult(t, r, want, s)
	}
	if err := s.Assert(a(ctx.Gt(x, zero))); err != nil {
		t.Fatal(err)
	}
	check(Sat)
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	if s.NumScopes() != 1 {
		t.Errorf("NumScopes = %d", s.NumScopes())
	}
	if err := s.Assert(a(ctx.Lt(x, zero))); err != nil {
		t.Fatal(err)
	}
	check(Unsat)
	if err := s.Pop(1); err != nil {
		t.Fatal(err)
	}
	check(Sat)
	if err := s.Pop(1); err == nil {
		t.Error("Pop with no open scope succeeded")
	}
	if err := s.Assert(a(ctx.Lt(x, zero))); err != nil {
		t.Fatal(err)
	}
	check(Unsat)
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if n := len(ok[[]AST](t)(s.Assertions())); n != 0 {
		t.Errorf("%d assertions after Reset", n)
	}
	check(Sat)
}

// hardNonlinear is a problem Z3 cannot settle within a tiny resource limit.
const hardNonlinear = `
(declare-fun x () Int)
(declare-fun y () Int)
(declare-fun z () Int)
(assert (> x 0))
(assert (> y 0))
(assert (> z 0))
(assert (= (+ (* x x x) (* y y y)) (* z z z)))
`

func TestRLimitUnknown(t *testing.T) {
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: 1, RandomSeed: 3})
	if err := s.AssertSMTLIB2(hardNonlinear); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if r != Unknown {
		t.Fatalf("got %v with rlimit 1", r)
	}
	reason := s.ReasonUnknown()
	if reason == "" || !strings.Contains(reason, "resource") {
		t.Errorf("reason %q", reason)
	}
	t.Logf("reason: %q, rlimit used %d", reason, s.RLimitUsed())

	// A quantified problem under rlimit 1 is also unknown.
	s2 := newSolver(t, ctx, SolverConfig{RLimit: 1})
	if err := s2.AssertSMTLIB2(`(declare-fun f (Int) Int)
		(assert (forall ((x Int)) (> (f x) (f (+ x 1)))))
		(assert (> (f 0) 100))`); err != nil {
		t.Fatal(err)
	}
	r, err = s2.Check()
	if err != nil || r != Unknown || s2.ReasonUnknown() == "" {
		t.Errorf("quantified with rlimit 1: %v %v %q", r, err, s2.ReasonUnknown())
	}
}

func TestRLimitDeterministic(t *testing.T) {
	const problem = `
(declare-fun a () Int)
(declare-fun b () Int)
(declare-fun c () Int)
(assert (and (> a 1) (> b 1) (> c 1)))
(assert (= (* a b) 391))
(assert (< a b))
(assert (= c (+ a b)))`
	run := func() uint64 {
		ctx, err := NewContext(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ctx.Close()
		s, err := ctx.NewSolver(SolverConfig{RLimit: 5_000_000, RandomSeed: 7})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.AssertSMTLIB2(problem); err != nil {
			t.Fatal(err)
		}
		r, err := s.Check()
		if err != nil || r != Sat {
			t.Fatalf("%v %v %s", r, err, s.ReasonUnknown())
		}
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if got := evalInt(t, m, ok[AST](t)(m.EvalSMTLIB2("a", true))); got != 17 {
			t.Errorf("a = %d, want 17", got)
		}
		st := ok[Stats](t)(s.Statistics())
		if st.RLimitCount() == 0 {
			t.Errorf("no rlimit count in %v", st)
		}
		return s.RLimitUsed()
	}
	// One context at a time: the count is identical run after run.
	var used []uint64
	for i := 0; i < 3; i++ {
		used = append(used, run())
	}
	if used[0] == 0 || used[0] != used[1] || used[1] != used[2] {
		t.Errorf("rlimit used per run %v; want equal and non-zero", used)
	}
	// With another context alive, Z3 4.8.12 counts slightly differently
	// (process-global state); the difference must stay tiny.
	other := newCtx(t)
	_ = ok[AST](t)(other.Int(1))
	alive := run()
	diff := float64(alive) - float64(used[0])
	if diff < 0 {
		diff = -diff
	}
	if diff > 0.01*float64(used[0]) {
		t.Errorf("rlimit used %d with another live context, %d alone", alive, used[0])
	}
	t.Logf("rlimit used: %d alone, %d with another live context", used[0], alive)

	// The verdict under a limit just below the cost is Unknown, and at a
	// generous limit Sat: the limit is what decides, not the clock.
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: used[0] / 2, RandomSeed: 7})
	if err := s.AssertSMTLIB2(problem); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Unknown {
		t.Errorf("with half the needed rlimit: %v %v", r, err)
	}
}

func TestTimeout(t *testing.T) {
	ctx := newCtx(t)
	// The rlimit only guards against a broken timeout hanging the test.
	s := newSolver(t, ctx, SolverConfig{TimeoutMS: 100, RLimit: 3_000_000})
	if err := s.AssertSMTLIB2(hardNonlinear); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := s.Check()
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if r != Unknown {
		t.Fatalf("hard problem decided: %v", r)
	}
	if reason := s.ReasonUnknown(); reason != "timeout" {
		t.Errorf("reason %q after %v", reason, elapsed)
	}
	if elapsed > 2*time.Second {
		t.Errorf("timeout of 100ms took %v", elapsed)
	}
	// The solver and context remain usable, and a later check is not
	// affected by the earlier interrupt.
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := s.AssertSMTLIB2(`(declare-fun x () Int)(assert (> x 0))`); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Errorf("after timeout: %v %v", r, err)
	}
}

func TestInterruptAndCancel(t *testing.T) {
	ctx := newCtx(t)
	s := newSolver(t, ctx, SolverConfig{RLimit: 3_000_000})
	if err := s.AssertSMTLIB2(hardNonlinear); err != nil {
		t.Fatal(err)
	}
	goctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.CheckContext(goctx)
	if err != nil || r != Unknown {
		t.Fatalf("CheckContext: %v %v", r, err)
	}
	if reason := s.ReasonUnknown(); reason != "canceled" || time.Since(start) > 2*time.Second {
		t.Errorf("reason %q after %v", reason, time.Since(start))
	}
	// Interrupt from another goroutine.
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		ctx.Interrupt()
	}()
	start = time.Now()
	r, err = s.Check()
	<-done
	if err != nil || r != Unknown || time.Since(start) > 2*time.Second {
		t.Errorf("interrupted Check: %v %v after %v (reason %q)", r, err, time.Since(start), s.ReasonUnknown())
	}
	t.Logf("Z3 reason after Interrupt: %q", s.ReasonUnknown())
	// An idle interrupt does not poison the next check.
	ctx.Interrupt()
	s2 := newSolver(t, ctx, SolverConfig{})
	if err := s2.AssertSMTLIB2(`(declare-fun x () Int)(assert (> x 0))`); err != nil {
		t.Fatal(err)
	}
	if r, err := s2.Check(); err != nil || r != Sat {
		t.Errorf("after idle interrupt: %v %v", r, err)
	}
}

func TestErrors(t *testing.T) {
	ctx := newCtx(t)
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	bs := ok[Sort](t)(ctx.BoolSort())
	x := a(ctx.Const("x", is))
	p := a(ctx.Const("p", bs))

	var zerr *Error
	// Sort mismatch through the API.
	if _, err := ctx.Eq(x, p); !errors.As(err, &zerr) || !strings.Contains(zerr.Msg, "incompatible") {
		t.Errorf("Eq(Int, Bool): %v", err)
	} else {
		t.Logf("Eq(Int, Bool): %v", err)
	}
	if _, err := ctx.Add(x, p); err == nil {
		t.Error("Add(Int, Bool) succeeded")
	}
	if _, err := ctx.And(x); err == nil {
		t.Error("And(Int) succeeded")
	}
	f := ok[FuncDecl](t)(ctx.FuncDecl("f", []Sort{is}, is))
	if _, err := ctx.Apply(f); err == nil {
		t.Error("Apply with wrong arity succeeded")
	}
	if _, err := ctx.Apply(f, p); err == nil {
		t.Error("Apply with wrong sort succeeded")
	}
	if _, err := ctx.Numeral("abc", is); err == nil {
		t.Error("Numeral(abc) succeeded")
	}
	if _, err := ctx.Forall([]AST{a(ctx.Add(x, x))}, p); err == nil {
		t.Error("Forall over a non-constant succeeded")
	}
	if _, err := ctx.Select(x, x); err == nil {
		t.Error("Select on a non-array succeeded")
	}
	arrS := ok[Sort](t)(ctx.ArraySort(is, bs))
	arr := a(ctx.Const("arr", arrS))
	if _, err := ctx.Store(arr, x, x); err == nil {
		t.Error("Store of an Int into an Int->Bool array succeeded")
	}
	if _, err := ctx.Select(arr, p); err == nil {
		t.Error("Select with a Bool index succeeded")
	}
	if _, err := ctx.Int64(3, bs); err == nil {
		t.Error("Int64 of sort Bool succeeded")
	}
	if _, err := ctx.Numeral("1/3", is); err == nil {
		t.Error("Numeral(1/3) of sort Int succeeded")
	}
	if _, err := ctx.Distinct(x, p); err == nil {
		t.Error("Distinct of mixed sorts succeeded")
	}
	if _, err := ctx.Ite(x, x, x); err == nil {
		t.Error("Ite with an Int condition succeeded")
	}
	if _, err := ctx.Lambda([]AST{a(ctx.Int(1))}, x); err == nil {
		t.Error("Lambda over a numeral succeeded")
	}
	if _, err := ctx.SeqUnit(AST{}); err == nil {
		t.Error("SeqUnit(zero) succeeded")
	}
	if _, err := ctx.SeqLength(x); err == nil {
		t.Error("SeqLength of an Int succeeded")
	}
	if _, _, _, err := ctx.EnumSort("Empty", nil); err == nil {
		t.Error("empty enumeration accepted")
	}
	if _, err := ctx.DatatypeSort("D", []ConstructorSpec{{Name: "d", Fields: []Field{{Name: "f"}}}}); err == nil {
		t.Error("datatype field with a zero sort accepted")
	}
	if _, err := ctx.DatatypeSort("DD", []ConstructorSpec{{Name: "k1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ctx.DatatypeSort("DD", []ConstructorSpec{{Name: "k2"}}); err == nil {
		t.Error("datatype name declared twice")
	}
	if _, _, _, err := ctx.EnumSort("DD", []string{"e"}); err == nil {
		t.Error("enumeration reused a datatype name")
	}
	if _, err := ctx.ParseTerm("x)) (assert (= 1 1", nil, []FuncDecl{ok[FuncDecl](t)(x.Decl())}); err == nil {
		t.Error("ParseTerm accepted text that is not a single term")
	}
	if _, err := x.Arg(0); err == nil {
		t.Error("Arg(0) of a constant succeeded")
	}
	if _, err := x.AsArrayDecl(); err == nil {
		t.Error("AsArrayDecl of a constant succeeded")
	}
	if _, err := x.Body(); err == nil {
		t.Error("Body of a constant succeeded")
	}
	if _, err := x.NumeralString(); err == nil {
		t.Error("NumeralString of a constant succeeded")
	}
	// The context stays usable after errors.
	if _, err := ctx.Eq(x, x); err != nil {
		t.Errorf("Eq(x, x) after errors: %v", err)
	}

	// Asserting a non-Boolean term.
	s := newSolver(t, ctx, SolverConfig{RLimit: testRLimit})
	if err := s.Assert(x); err == nil {
		t.Error("Assert(Int) succeeded")
	}

	// Malformed SMT-LIB2.
	for _, text := range []string{
		"(declare-fun x () Int)(assert (= x",
		"(declare-fun x () Int)(assert (= x true))",
		"(assert (> y 0))",
		"(assert (foo",
	} {
		err := s.AssertSMTLIB2(text)
		if !errors.As(err, &zerr) || zerr.Code != ErrParser {
			t.Errorf("AssertSMTLIB2(%q) = %v, want parser error", text, err)
		}
	}
	if n := len(ok[[]AST](t)(s.Assertions())); n != 0 {
		t.Errorf("failed parses left %d assertions", n)
	}
	if _, err := ctx.ParseTerm("(+ 1", nil, nil); err == nil {
		t.Error("ParseTerm of malformed text succeeded")
	}

	// Zero values and foreign contexts.
	if _, err := ctx.Not(AST{}); !errors.As(err, &zerr) || zerr.Code != ErrUsage {
		t.Errorf("Not(zero) = %v", err)
	}
	other := newCtx(t)
	y := ok[AST](t)(other.Const("y", ok[Sort](t)(other.IntSort())))
	if _, err := ctx.Eq(x, y); !errors.As(err, &zerr) || zerr.Code != ErrUsage {
		t.Errorf("Eq across contexts = %v", err)
	}

	// Bad solver parameters.
	if _, err := ctx.NewSolver(SolverConfig{Params: map[string]any{"no_such_param": true}}); !errors.As(err, &zerr) || zerr.Code != ErrParam {
		t.Errorf("unknown solver param: %v", err)
	}
	if _, err := ctx.NewSolver(SolverConfig{Params: map[string]any{"mbqi": uint(3)}}); err == nil {
		t.Error("ill-typed solver param accepted")
	}
	if _, err := ctx.NewSolver(SolverConfig{RLimit: 1 << 40}); err == nil {
		t.Error("64-bit rlimit accepted")
	}
	if _, err := NewContext(&Config{Params: map[string]string{"bogus": "1"}}); err == nil {
		t.Error("unknown context param accepted")
	}
	if _, err := NewContext(&Config{Params: map[string]string{"model": "maybe"}}); err == nil {
		t.Error("bad context param value accepted")
	}
	if _, err := NewContext(&Config{Params: map[string]string{"rlimit": "-1"}}); err == nil {
		t.Error("negative rlimit accepted")
	}

	// Model before any check.
	if _, err := s.Model(); err == nil {
		t.Error("Model before Check succeeded")
	}
}

func TestClosed(t *testing.T) {
	ctx, err := NewContext(&Config{Params: map[string]string{"model": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	a := ok[AST](t)
	is := ok[Sort](t)(ctx.IntSort())
	x := a(ctx.Const("x", is))
	s := ok[*Solver](t)(ctx.NewSolver(SolverConfig{}))
	if err := s.Assert(a(ctx.Gt(x, a(ctx.Int(0))))); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Fatal(r, err)
	}
	m := ok[*Model](t)(s.Model())
	m.Close()
	if _, err := m.Eval(x, true); !errors.Is(err, ErrClosed) {
		t.Errorf("Eval on closed model: %v", err)
	}
	m2 := ok[*Model](t)(s.Model())
	ctx.Close()
	ctx.Close()
	if _, err := s.Check(); !errors.Is(err, ErrClosed) {
		t.Errorf("Check after context Close: %v", err)
	}
	if _, err := m2.Eval(x, true); !errors.Is(err, ErrClosed) {
		t.Errorf("Eval after context Close: %v", err)
	}
	if _, err := ctx.Int(1); !errors.Is(err, ErrClosed) {
		t.Errorf("Int after Close: %v", err)
	}
	if x.String() != "<closed>" || x.Kind() != UnknownKind {
		t.Errorf("closed AST: %q %v", x.String(), x.Kind())
	}
	s.Close()
	m2.Close()
	ctx.Interrupt()
}
