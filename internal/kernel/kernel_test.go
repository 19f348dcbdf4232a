package kernel

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"ladder/internal/counterexample"
	"ladder/internal/logic"
	"ladder/internal/refute"
	"ladder/internal/source"
)

// fakeSolver answers from a script keyed by the first assertion's name.
type fakeSolver struct {
	answers  map[string]answer
	err      error
	calls    *int
	released *int
}

func (f *fakeSolver) check(p *logic.Problem, _ string, cfg Config) (answer, error) {
	*f.calls++
	if f.err != nil {
		return answer{}, f.err
	}
	a := f.answers[p.Assertions[0].Name]
	if a.status == statusSat && !cfg.plain { // as z3Solver: no model from the plain solver
		a.release = func() { *f.released++ }
	}
	return a, nil
}

func (f *fakeSolver) model(p *logic.Problem, cfg Config) (answer, error) {
	text, _ := p.Text()
	return f.check(p, text, cfg)
}

func (f *fakeSolver) close() {}

// problem returns x > n ∧ ¬(x > 0), named name.
func problem(name string, n int64) *logic.Problem {
	x := logic.Const("x", logic.IntSort())
	return &logic.Problem{Assertions: []logic.Named{
		{Name: name, Term: logic.Gt(x, logic.IntVal(n))},
		{Name: "goal", Term: logic.Not(logic.Gt(x, logic.IntVal(0)))},
	}}
}

func obligation(id, name string, replay replayer) *Obligation {
	return &Obligation{ID: id, Problem: problem(name, 0),
		Pos: source.Pos{File: "a.yaml", Line: 3, Col: 5}, Replay: replay}
}

type harness struct {
	k        *Kernel
	calls    int
	released int
	dir      string
}

func newHarness(t *testing.T, cfg Config, answers map[string]answer, err error) *harness {
	t.Helper()
	h := &harness{dir: t.TempDir()}
	k, kerr := newKernel(cfg, h.dir, "z3", "4.8.12", func() (solver, error) {
		return &fakeSolver{answers: answers, err: err, calls: &h.calls, released: &h.released}, nil
	}, refute.New())
	if kerr != nil {
		t.Fatal(kerr)
	}
	h.k = k
	return h
}

func (h *harness) check(t *testing.T, ob *Obligation) (*Query, Result) {
	t.Helper()
	q, err := h.k.Prepare(ob)
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.k.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return q, s.Check(q)
}

var cex = &counterexample.Counterexample{}

func TestCheckVerdicts(t *testing.T) {
	answers := map[string]answer{
		"unsat":   {status: statusUnsat, rlimit: 42},
		"sat":     {status: statusSat},
		"unknown": {status: statusUnknown, reason: "max. resource limit exceeded"},
		"timeout": {status: statusUnknown, reason: "timeout", timeout: true},
	}
	good := func(logic.Model) (*counterexample.Counterexample, error) { return cex, nil }
	bad := func(logic.Model) (*counterexample.Counterexample, error) {
		return nil, errors.New("pre-state violates hypothesis inv")
	}
	nothing := func(logic.Model) (*counterexample.Counterexample, error) { return nil, nil }
	panicky := func(logic.Model) (*counterexample.Counterexample, error) { panic("index out of range") }
	tests := []struct {
		name      string
		ob        *Obligation
		verdict   Verdict
		internal  bool
		reason    string // substring
		dumped    bool
		cacheable bool
	}{
		{"unsat", obligation("o1", "unsat", good), Proved, false, "", false, true},
		{"sat replayed", obligation("o2", "sat", good), Refuted, false, "", false, true},
		{"sat not replayed", obligation("o3", "sat", bad), Unknown, true, "[internal] solver model does not replay: pre-state violates", true, false},
		{"sat no cex", obligation("o4", "sat", nothing), Unknown, true, "[internal] solver model does not replay", true, false},
		{"sat no replay", obligation("o5", "sat", nil), Unknown, true, "[internal] solver model does not replay", true, false},
		{"sat replay panics", obligation("o6", "sat", panicky), Unknown, true, "replay panicked", true, false},
		{"unknown", obligation("o7", "unknown", good), Unknown, false, "z3: max. resource limit exceeded (rlimit 1000, timeout 2s, seed 7)", true, true},
		{"timeout", obligation("o8", "timeout", good), Unknown, false, "z3: timeout", true, false},
	}
	h := newHarness(t, Config{Seed: 7, RLimit: 1000, Timeout: 2 * time.Second}, answers, nil)
	for _, tt := range tests {
		q, r := h.check(t, tt.ob)
		if r.Verdict() != tt.verdict || r.Internal != tt.internal || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("%s: got %v internal=%v reason=%q; want %v internal=%v reason~%q",
				tt.name, r.Verdict(), r.Internal, r.Reason, tt.verdict, tt.internal, tt.reason)
		}
		if (r.Dump != "") != tt.dumped {
			t.Errorf("%s: dump = %q; want dumped=%v", tt.name, r.Dump, tt.dumped)
		}
		if tt.dumped {
			data, err := os.ReadFile(r.Dump)
			if err != nil || string(data) != q.Script() {
				t.Errorf("%s: dump %s does not hold the script (%v)", tt.name, r.Dump, err)
			}
		}
		if r.Cacheable() != tt.cacheable {
			t.Errorf("%s: Cacheable() = %v; want %v", tt.name, r.Cacheable(), tt.cacheable)
		}
		if tt.verdict == Refuted && r.Counterexample == nil {
			t.Errorf("%s: refuted without a counterexample", tt.name)
		}
	}
	if h.released != 5 {
		t.Errorf("released %d models; want one per sat answer (5)", h.released)
	}
}

func TestCheckSolverError(t *testing.T) {
	h := newHarness(t, Config{}, nil, errors.New("Z3 exploded"))
	_, r := h.check(t, obligation("o", "x", nil))
	if r.Verdict() != Unknown || !r.Internal || !strings.Contains(r.Reason, "[internal] solver error: Z3 exploded") {
		t.Errorf("got %v %q; want an internal unknown", r.Verdict(), r.Reason)
	}
}

func TestPrepareIllFormed(t *testing.T) {
	h := newHarness(t, Config{}, nil, nil)
	ob := obligation("o", "x", nil)
	ob.Problem.Assertions = append(ob.Problem.Assertions, logic.Named{Name: "bad", Term: logic.Add(logic.True(), logic.IntVal(1))})
	if _, err := h.k.Prepare(ob); err == nil {
		t.Fatal("Prepare accepted an ill-sorted problem")
	}
	if _, err := h.k.Prepare(&Obligation{ID: "empty"}); err == nil {
		t.Fatal("Prepare accepted an obligation without a problem")
	}
	if r := Failed(errors.New("boom")); r.Verdict() != Unknown || !r.Internal || r.Cacheable() {
		t.Errorf("Failed: %v internal=%v cacheable=%v", r.Verdict(), r.Internal, r.Cacheable())
	}
}

func TestPrepareCopiesProblem(t *testing.T) {
	answers := map[string]answer{"unsat": {status: statusUnsat}, "sat": {status: statusSat}}
	h := newHarness(t, Config{}, answers, nil)
	ob := obligation("o", "sat", func(logic.Model) (*counterexample.Counterexample, error) { return cex, nil })
	q, err := h.k.Prepare(ob)
	if err != nil {
		t.Fatal(err)
	}
	// Tampering with the obligation after Prepare changes neither what is
	// checked nor the text the result is bound to.
	ob.Problem.Assertions[0].Name = "unsat"
	s, _ := h.k.NewSession()
	defer s.Close()
	if r := s.Check(q); r.Verdict() != Refuted {
		t.Errorf("verdict = %v; want refuted (the prepared problem)", r.Verdict())
	}
	if !strings.Contains(q.Text(), "; sat\n") {
		t.Errorf("text changed:\n%s", q.Text())
	}
}

func TestAdmit(t *testing.T) {
	answers := map[string]answer{
		"unsat":   {status: statusUnsat},
		"sat":     {status: statusSat},
		"unknown": {status: statusUnknown, reason: "max. resource limit exceeded"},
	}
	good := func(logic.Model) (*counterexample.Counterexample, error) { return cex, nil }
	h := newHarness(t, Config{}, answers, nil)
	for _, name := range []string{"unsat", "sat", "unknown"} {
		q, r := h.check(t, obligation("o-"+name, name, good))
		data, err := r.Encode()
		if err != nil {
			t.Fatalf("%s: Encode: %v", name, err)
		}
		a, err := h.k.Admit(q, data)
		if err != nil {
			t.Fatalf("%s: Admit: %v", name, err)
		}
		if a.Verdict() != r.Verdict() || a.Reason != r.Reason || (a.Counterexample == nil) != (r.Counterexample == nil) {
			t.Errorf("%s: admitted %v %q; want %v %q", name, a.Verdict(), a.Reason, r.Verdict(), r.Reason)
		}
		if name == "unknown" && a.Dump == "" {
			t.Errorf("admitted unknown has no dump")
		}
		if a.Solver != r.Solver || (name == "unsat") != (a.Solver != "") {
			t.Errorf("%s: admitted solver %q; checked %q", name, a.Solver, r.Solver)
		}
	}

	// A proved record is refused for any other query: other text, other
	// limits, other solver version, other seed.
	q, r := h.check(t, obligation("o", "unsat", good))
	data, _ := r.Encode()
	other := obligation("o", "unsat", good)
	other.Problem = problem("unsat", 1)
	q2, _ := h.k.Prepare(other)
	if _, err := h.k.Admit(q2, data); err == nil {
		t.Error("admitted a record for another text")
	}
	for _, cfg := range []Config{{RLimit: 123}, {Timeout: time.Second}, {Seed: 1}} {
		k2, _ := newKernel(cfg, h.dir, "z3", "4.8.12", nil, refute.New())
		q3, _ := k2.Prepare(obligation("o", "unsat", good))
		if _, err := k2.Admit(q3, data); err == nil {
			t.Errorf("admitted a record under %+v", cfg)
		}
	}
	k3, _ := newKernel(Config{}, h.dir, "z3", "4.13.0", nil, refute.New())
	q4, _ := k3.Prepare(obligation("o", "unsat", good))
	if _, err := k3.Admit(q4, data); err == nil {
		t.Error("admitted a record from another solver version")
	}
	for _, bad := range []string{
		``, `{}`, `not json`,
		strings.Replace(string(data), `"proved"`, `"Proved"`, 1),
		strings.Replace(string(data), fmt.Sprintf(`"kernel":%d`, Format), fmt.Sprintf(`"kernel":%d`, Format+1), 1),
		strings.Replace(string(data), `}`, `,"extra":1}`, 1),
		string(data) + `{}`,
		strings.Replace(string(data), `"proved"`, `"refuted"`, 1), // refuted without counterexample
		strings.Replace(string(data), `"solver":"`, `"solver":"x`, 1),
		strings.Replace(strings.Replace(string(data), `,"solver":"plain"`, ``, 1), `,"solver":"default"`, ``, 1),
	} {
		if _, err := h.k.Admit(q, []byte(bad)); err == nil {
			t.Errorf("admitted %q", bad)
		}
	}
	if _, err := Failed(errors.New("x")).Encode(); err == nil {
		t.Error("encoded an internal failure")
	}
}

func TestConfig(t *testing.T) {
	if got, want := (Config{}).Params(), (Config{RLimit: DefaultRLimit, Timeout: DefaultTimeout}).Params(); got != want {
		t.Errorf("zero Config params %s; want the defaults %s", got, want)
	}
	want := `"first_rlimit"="10" "kernel"="11" "presearch_rlimit"="10" "random_seed"="3" "retry_rlimit"="10" "rlimit"="10" "search_budget"="30000000" "search_max_size"="3" "search_rlimit"="5000000" "short_rlimit"="10" "slice_rlimit"="10" "timeout_ms"="1500"`
	if got := (Config{Seed: 3, RLimit: 10, Timeout: 1500 * time.Millisecond}).Params(); got != want {
		t.Errorf("Params = %s; want %s", got, want)
	}
	want = `"first_rlimit"="100" "kernel"="11" "random_seed"="0" "retry_rlimit"="200" "rlimit"="200" "search"="off" "short_rlimit"="200" "slices"="off" "timeout_ms"="120000"`
	if got := (Config{RLimit: 200, FirstRLimit: 100, NoSlices: true, Search: SearchConfig{Off: true, MaxSize: 2}}).Params(); got != want {
		t.Errorf("Params = %s; want %s", got, want)
	}
	want = `"first_rlimit"="100000" "kernel"="11" "minimize"="off" "presearch_rlimit"="5000000" "random_seed"="0" "retry_rlimit"="20000000" "rlimit"="100000000" "search_budget"="30000000" "search_max_size"="3" "search_rlimit"="5000000" "short_rlimit"="2000000" "slice_rlimit"="5000000" "timeout_ms"="120000"`
	if got := (Config{Search: SearchConfig{NoMinimize: true}}).Params(); got != want {
		t.Errorf("Params = %s; want %s", got, want)
	}
	// Every search parameter is part of the identity.
	base := (Config{}).Params()
	for _, c := range []Config{{FirstRLimit: 5}, {RetryRLimit: 5}, {SliceRLimit: DefaultFirstRLimit + 1}, {ShortRLimit: DefaultFirstRLimit + 1}, {NoSlices: true}, {Search: SearchConfig{Off: true}}, {Search: SearchConfig{MaxSize: 2}},
		{Search: SearchConfig{RLimit: 7}}, {Search: SearchConfig{Budget: 9}}, {Search: SearchConfig{NoMinimize: true}}} {
		if c.Params() == base {
			t.Errorf("%+v has the default params", c)
		}
	}
	for _, bad := range []Config{{RLimit: 1 << 33}, {Timeout: -time.Second}, {Timeout: 1500 * time.Microsecond},
		{Search: SearchConfig{RLimit: 1 << 33}}, {Search: SearchConfig{MaxSize: 9}}, {Search: SearchConfig{MaxSize: -1}}} {
		if _, err := newKernel(bad, "", "z3", "4.8.12", nil, refute.New()); err == nil {
			t.Errorf("newKernel accepted %+v", bad)
		}
	}
	// The search needs a refuter; without the search, none is needed.
	if _, err := newKernel(Config{}, "", "z3", "4.8.12", nil, nil); err == nil {
		t.Error("newKernel accepted the bounded search without a refuter")
	}
	if _, err := newKernel(Config{Search: SearchConfig{Off: true}}, "", "z3", "4.8.12", nil, nil); err != nil {
		t.Errorf("newKernel refused the search off without a refuter: %v", err)
	}
}

func TestScript(t *testing.T) {
	h := newHarness(t, Config{Seed: 2, RLimit: 5000, Timeout: 3 * time.Second}, nil, nil)
	q, err := h.k.Prepare(obligation("A › invariant p › Inc", "x", nil))
	if err != nil {
		t.Fatal(err)
	}
	s := q.Script()
	for _, want := range []string{
		"; ladder obligation: A › invariant p › Inc\n",
		"; blames: a.yaml:3:5\n",
		"(set-option :random-seed 2)\n(set-option :rlimit 5000)\n(set-option :timeout 3000)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if !strings.HasSuffix(s, q.Text()) {
		t.Errorf("script does not end with the text")
	}
	if strings.Contains(s, "(push 1)") {
		t.Errorf("the script of an unproved query selects the plain solver:\n%s", s)
	}
	// A query proved by the plain solver is dumped for the command line's
	// incremental mode, which uses that solver; one proved by the default
	// solver is dumped as Script.
	plain := q.ScriptFor(Result{verdict: Proved, Solver: SolverPlain})
	if !strings.Contains(plain, "; proved by: the plain solver\n") || !strings.HasSuffix(plain, "(push 1)\n"+q.Text()) {
		t.Errorf("plain solver's script:\n%s", plain)
	}
	def := q.ScriptFor(Result{verdict: Proved, Solver: SolverDefault})
	if strings.Contains(def, "(push 1)") || !strings.HasSuffix(def, q.Text()) {
		t.Errorf("default solver's script:\n%s", def)
	}
}

// replayer is the type of Obligation.Replay.
type replayer = func(logic.Model) (*counterexample.Counterexample, error)

// TestTrivial checks the one verdict the kernel gives without the solver:
// a problem with the literal false among its assertions is Trivial, with
// no solver call, and a problem that is unsat for any other reason is
// still sent to the solver. A cached trivial record is admitted only for a
// query that is trivial itself.
func TestTrivial(t *testing.T) {
	answers := map[string]answer{"hyp": {status: statusUnsat}}
	h := newHarness(t, Config{}, answers, nil)
	x := logic.Const("x", logic.IntSort())
	trivial := &Obligation{ID: "t", Problem: &logic.Problem{Assertions: []logic.Named{
		{Name: "hyp", Term: logic.Gt(x, logic.IntVal(0))},
		{Name: "goal (negated)", Term: logic.False()},
	}}}
	q, r := h.check(t, trivial)
	if r.Verdict() != Trivial || !r.Verdict().Discharged() || h.calls != 0 {
		t.Fatalf("trivial problem: %v after %d solver calls; want trivial after none", r.Verdict(), h.calls)
	}
	if !strings.Contains(r.Reason, `"goal (negated)"`) {
		t.Errorf("reason %q does not name the false assertion", r.Reason)
	}
	if r2, ok := h.k.Trivial(q); !ok || r2.Verdict() != Trivial {
		t.Errorf("Kernel.Trivial disagrees with Check")
	}
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if a, err := h.k.Admit(q, data); err != nil || a.Verdict() != Trivial {
		t.Errorf("trivial record not admitted for its query: %v %v", a.Verdict(), err)
	}

	// Unsat, but not by a literal: the solver decides it.
	contradiction := &Obligation{ID: "c", Problem: &logic.Problem{Assertions: []logic.Named{
		{Name: "hyp", Term: logic.Gt(x, logic.IntVal(0))},
		{Name: "goal (negated)", Term: logic.Not(logic.Gt(x, logic.IntVal(0)))},
	}}}
	q2, r2 := h.check(t, contradiction)
	if r2.Verdict() != Proved || h.calls != 1 {
		t.Errorf("non-literal contradiction: %v after %d solver calls; want proved after 1", r2.Verdict(), h.calls)
	}
	if _, ok := h.k.Trivial(q2); ok {
		t.Error("Kernel.Trivial accepts a problem with no false assertion")
	}
	// A trivial record forged for the non-trivial query is refused.
	d2, _ := r2.Encode()
	forged := strings.Replace(string(d2), `"proved"`, `"trivial"`, 1)
	if _, err := h.k.Admit(q2, []byte(forged)); err == nil {
		t.Error("admitted a trivial record for a query with no false assertion")
	}
}
