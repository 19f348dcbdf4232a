package smt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"

	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/internal/z3"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
)

func newSession(t *testing.T) *Session {
	t.Helper()
	zc, err := z3.NewContext(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(zc.Close)
	return NewSession(zc)
}

// cfg is the configuration of the tests' checks: a fixed seed and a
// resource limit far above what any test problem needs.
var cfg = Config{RLimit: 50_000_000, Seed: 1}

// invStep builds the inductive step of inv for act (as package simulation
// will): invariants and Nat facts in the pre-state, Pre, not inv(Post).
func invStep(t *testing.T, a *ioa.Automaton, act *ioa.Action, inv *ioa.Invariant) *logic.Problem {
	t.Helper()
	e := encode.New()
	s, err := e.NewState(a, "s")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := e.NewParams(act, "p")
	if err != nil {
		t.Fatal(err)
	}
	var hyps []logic.Named
	for _, i := range a.Invariants {
		f, err := e.Formula(i.Body, &encode.Env{State: s})
		if err != nil {
			t.Fatal(err)
		}
		hyps = append(hyps, logic.Named{Name: "inv " + i.Name, Term: f})
	}
	nf, err := e.NatFacts(s)
	if err != nil {
		t.Fatal(err)
	}
	pre, err := e.Pre(act, s, ps)
	if err != nil {
		t.Fatal(err)
	}
	hyps = append(hyps, logic.Named{Name: "nat", Term: nf}, logic.Named{Name: "pre " + act.Name, Term: pre})
	post, err := e.Post(act, s, ps, "s'")
	if err != nil {
		t.Fatal(err)
	}
	goal, err := e.Formula(inv.Body, &encode.Env{State: post})
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Problem(hyps, goal)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTMS2Invariants proves every invariant of TMS2 inductive for every
// action through the API, and checks that the canonical text gives the
// same verdict through Z3's parser and (when installed) the z3 command line.
func TestTMS2Invariants(t *testing.T) {
	a := loadAutomaton(t, "../../specs/TMS2.yaml", "TMS2")
	ss := newSession(t)
	var rl uint64
	var secs float64
	n := 0
	start := time.Now()
	for _, inv := range a.Invariants {
		for _, act := range a.Actions {
			p := invStep(t, a, act, inv)
			r, err := ss.Check(context.Background(), p, cfg)
			if err != nil {
				t.Fatalf("%s/%s: %v", inv.Name, act.Name, err)
			}
			if r.Status != Unsat {
				t.Errorf("%s/%s: %s (%s)", inv.Name, act.Name, r.Status, r.Reason)
			}
			rt, err := CheckText(context.Background(), p, cfg)
			if err != nil {
				t.Fatalf("%s/%s text: %v", inv.Name, act.Name, err)
			}
			if rt.Status != r.Status {
				t.Errorf("%s/%s: API says %s, text says %s", inv.Name, act.Name, r.Status, rt.Status)
			}
			if r.RLimitUsed == 0 {
				t.Errorf("%s/%s: no resource use reported", inv.Name, act.Name)
			}
			rl += r.RLimitUsed
			secs += r.Seconds
			n++
			if n%13 == 0 {
				if v := z3CLI(t, p); v != "" && v != r.Status.String() {
					t.Errorf("%s/%s: z3 command line says %s, API %s", inv.Name, act.Name, v, r.Status)
				}
			}
		}
	}
	t.Logf("TMS2: %d invariant obligations, %.3fs in Check, %d rlimit units, %v in all", n, secs, rl, time.Since(start))
}

// z3CLI returns the z3 command line's verdict on p's text, or "" when z3
// is not installed.
func z3CLI(t *testing.T, p *logic.Problem) string {
	t.Helper()
	path, err := exec.LookPath("z3")
	if err != nil {
		return ""
	}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "-in", "smt.random_seed=1", "sat.random_seed=1")
	cmd.Stdin = strings.NewReader(text)
	out, _ := cmd.CombinedOutput()
	return strings.TrimSpace(string(out))
}

// pinUniverse returns the hypotheses that every parameter sort of a has
// exactly the elements of inst: forall x: T. x = T#0 or ... (the T#i are
// pairwise distinct by the encoder's background facts).
func pinUniverse(t *testing.T, e *encode.Encoder, sorts []*expr.Sort, inst *eval.Instance) []logic.Named {
	t.Helper()
	var out []logic.Named
	for _, s := range sorts {
		if s.Kind != expr.KParam {
			continue
		}
		x := logic.Var("x", logic.UninterpretedSort(s.Name))
		var alts []*logic.Term
		for i := 0; i < inst.Sizes[s.Name]; i++ {
			v, err := e.Literal(eval.Elem(i), s, inst)
			if err != nil {
				t.Fatal(err)
			}
			alts = append(alts, logic.Eq(x, v.Term()))
		}
		out = append(out, logic.Named{Name: "universe " + s.Name, Term: logic.Forall([]*logic.Term{x}, logic.Or(alts...))})
	}
	return out
}

// pinConstants returns the hypotheses that the arbitrary constants of a
// have their values in inst (given, or the default).
func pinConstants(t *testing.T, e *encode.Encoder, a *ioa.Automaton, inst *eval.Instance) []logic.Named {
	t.Helper()
	var out []logic.Named
	for _, c := range a.Consts {
		if c.Body != nil {
			continue
		}
		v, ok := inst.Consts[c.Name]
		if !ok {
			var err error
			if v, err = inst.Default(c.Sort); err != nil {
				t.Fatal(err)
			}
		}
		lit, err := e.Literal(v, c.Sort, inst)
		if err != nil {
			t.Fatal(err)
		}
		sym, err := e.Constant(c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, logic.Named{Name: "const " + c.Name, Term: encode.Eq(sym, lit)})
	}
	return out
}

// reachable returns states reached by random runs of the evaluator.
func reachable(t *testing.T, m *eval.Machine, rng *rand.Rand, walks, steps int) []eval.State {
	t.Helper()
	init, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	r := fast.NewRunner(m)
	var out []eval.State
	for w := 0; w < walks; w++ {
		s := init[rng.IntN(len(init))]
		for i := 0; i < steps; i++ {
			out = append(out, s)
			var succ []eval.State
			if err := r.Successors(s, func(_ int, _ []eval.Value, post eval.State) bool {
				succ = append(succ, post)
				return true
			}); err != nil {
				break // overflow and the like: stop this walk
			}
			if len(succ) == 0 {
				break
			}
			s = succ[rng.IntN(len(succ))]
		}
	}
	return out
}

// randomParams picks parameter values: elements of finite sorts, and
// integers from -2 to 5 for range parameters (in range or not).
func randomParams(t *testing.T, act *ioa.Action, inst *eval.Instance, rng *rand.Rand) ([]eval.Value, []*expr.Sort) {
	t.Helper()
	vals := make([]eval.Value, len(act.Params))
	sorts := make([]*expr.Sort, len(act.Params))
	for i, b := range act.Params {
		sorts[i] = b.Var.Sort
		if b.Lo != nil {
			vals[i] = eval.Int(int64(rng.IntN(8) - 2))
			continue
		}
		vs, err := inst.Values(b.Var.Sort)
		if err != nil {
			t.Fatal(err)
		}
		vals[i] = vs[rng.IntN(len(vs))]
	}
	return vals, sorts
}

// differential checks, on reachable states of a in inst, that Pre is
// valid iff the evaluator says enabled and that Post equals the
// evaluator's post-state (both as unsat of the negation, with the state,
// the constants and the universes pinned to the instance).
func differential(t *testing.T, a *ioa.Automaton, inst *eval.Instance, seed uint64, nStates, nParams int) {
	m, err := eval.NewMachine(a, inst)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	states := reachable(t, m, rng, 6, 15)
	ss := newSession(t)
	checks, enabled := 0, 0
	var secs float64
	for k := 0; k < nStates; k++ {
		s := states[rng.IntN(len(states))]
		// the enabled transitions (a few, at random) and random parameters
		type step struct {
			act    *ioa.Action
			params []eval.Value
		}
		var steps []step
		if err := fast.NewRunner(m).Successors(s, func(ai int, params []eval.Value, _ eval.State) bool {
			if rng.IntN(3) == 0 {
				steps = append(steps, step{a.Actions[ai], append([]eval.Value(nil), params...)})
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		for _, act := range a.Actions {
			for j := 0; j < nParams; j++ {
				params, _ := randomParams(t, act, inst, rng)
				steps = append(steps, step{act, params})
			}
		}
		for _, stp := range steps {
			act, params := stp.act, stp.params
			psorts := make([]*expr.Sort, len(act.Params))
			for i, b := range act.Params {
				psorts[i] = b.Var.Sort
			}
			{
				post, ok, err := m.Step(act, s, params)
				if err != nil {
					continue // an evaluation error (overflow): nothing to compare
				}
				e := encode.New()
				st, err := e.NewState(a, "s")
				if err != nil {
					t.Fatal(err)
				}
				var hyps []logic.Named
				for i, v := range a.Vars {
					lit, err := e.Literal(s[i], v.Sort, inst)
					if err != nil {
						t.Fatal(err)
					}
					hyps = append(hyps, logic.Named{Name: "s." + v.Name, Term: encode.Eq(st.Vars[i], lit)})
				}
				hyps = append(hyps, pinConstants(t, e, a, inst)...)
				hyps = append(hyps, pinUniverse(t, e, a.Sorts, inst)...)
				ps := make([]encode.Value, len(params))
				for i := range params {
					if ps[i], err = e.Literal(params[i], psorts[i], inst); err != nil {
						t.Fatal(err)
					}
				}
				pre, err := e.Pre(act, st, ps)
				if err != nil {
					t.Fatal(err)
				}
				goal := pre
				if !ok {
					goal = logic.Not(pre)
				} else {
					enabled++
					postSt, err := e.Post(act, st, ps, "s'")
					if err != nil {
						t.Fatal(err)
					}
					var eqs []*logic.Term
					for i, v := range a.Vars {
						lit, err := e.Literal(post[i], v.Sort, inst)
						if err != nil {
							t.Fatal(err)
						}
						eqs = append(eqs, encode.Eq(postSt.Vars[i], lit))
					}
					goal = logic.And(goal, logic.And(eqs...))
				}
				p, err := e.Problem(hyps, goal)
				if err != nil {
					t.Fatal(err)
				}
				r, err := ss.Check(context.Background(), p, cfg)
				if err != nil {
					t.Fatal(err)
				}
				checks++
				secs += r.Seconds
				if r.Status != Unsat {
					text, _ := p.Text()
					t.Errorf("%s in %s (enabled: %v): the encoding disagrees with the evaluator: %s %s\n%s",
						m.FormatAction(act, params), s.Format(a), ok, r.Status, r.Reason, text)
					return
				}
			}
		}
	}
	if enabled == 0 {
		t.Errorf("no enabled transition was compared")
	}
	t.Logf("%s: %d comparisons (%d enabled) on %d reachable states, %.2fs in Check", a.Name, checks, enabled, len(states), secs)
}

func TestDifferentialTMS2(t *testing.T) {
	a := loadAutomaton(t, "../../specs/TMS2.yaml", "TMS2")
	inst := &eval.Instance{Sizes: map[string]int{"T": 2, "L": 2, "V": 2}, Consts: map[string]eval.Value{"v0": eval.Elem(1)}}
	differential(t, a, inst, 1, 10, 2)
}

func TestDifferentialGadgets(t *testing.T) {
	a := loadAutomaton(t, "testdata/gadgets.yaml", "Gadgets")
	inst := &eval.Instance{Sizes: map[string]int{"T": 2, "V": 2}, Consts: map[string]eval.Value{"v0": eval.Elem(1)}}
	differential(t, a, inst, 2, 8, 2)
}

// TestCounterexampleReplay finds models of "Pre holds" for every action
// of Gadgets and TMS2 without pinning anything, decodes the pre-state, the
// parameters and the post-state, and replays the step with the evaluator
// in the decoded instance: it must be enabled and give the decoded
// post-state.
func TestCounterexampleReplay(t *testing.T) {
	for _, c := range []struct{ file, name string }{{"testdata/gadgets.yaml", "Gadgets"}, {"../../specs/TMS2.yaml", "TMS2"}} {
		a := loadAutomaton(t, c.file, c.name)
		ss := newSession(t)
		replayed := 0
		defer func() {
			if replayed < len(a.Actions)/2 {
				t.Errorf("%s: only %d of %d actions replayed", a.Name, replayed, len(a.Actions))
			}
		}()
		for _, act := range a.Actions {
			e := encode.New()
			st, err := e.NewState(a, "s")
			if err != nil {
				t.Fatal(err)
			}
			ps, err := e.NewParams(act, "p")
			if err != nil {
				t.Fatal(err)
			}
			pre, err := e.Pre(act, st, ps)
			if err != nil {
				t.Fatal(err)
			}
			post, err := e.Post(act, st, ps, "s'")
			if err != nil {
				t.Fatal(err)
			}
			// mention every variable of the post-state so that the model
			// covers it, and every constant
			hyps := []logic.Named{{Name: "pre", Term: pre}}
			// the automata mention S#1 of their parameter sorts S: the
			// instance must have it
			for _, srt := range a.Sorts {
				if srt.Kind != expr.KParam {
					continue
				}
				var elems []*logic.Term
				for _, i := range []int{0, 1} {
					v, err := e.Literal(eval.Elem(i), srt, nil)
					if err != nil {
						t.Fatal(err)
					}
					elems = append(elems, v.Term())
				}
				hyps = append(hyps, logic.Named{Name: srt.Name + "#1 exists", Term: logic.Distinct(elems...)})
			}
			for i := range post.Vars {
				hyps = append(hyps, logic.Named{Name: "post " + a.Vars[i].Name, Term: encode.Eq(post.Vars[i], post.Vars[i])})
			}
			p, err := e.Problem(hyps, nil)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ss.Check(context.Background(), p, Config{RLimit: 500_000, Seed: 1, Model: true})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status == Unknown {
				t.Logf("%s.%s: no model (%s): not replayed", a.Name, act.Name, r.Reason)
				continue
			}
			if r.Status != Sat {
				t.Errorf("%s.%s: pre unsatisfiable", a.Name, act.Name)
				continue
			}
			replayed++
			d := e.NewDecoder(r.Model)
			s, err := d.State(st)
			if err != nil {
				t.Fatalf("%s.%s: decode: %v", a.Name, act.Name, err)
			}
			params, err := d.Values(ps)
			if err != nil {
				t.Fatalf("%s.%s: decode params: %v", a.Name, act.Name, err)
			}
			want, err := d.State(post)
			if err != nil {
				t.Fatalf("%s.%s: decode post: %v", a.Name, act.Name, err)
			}
			inst := d.Instance()
			inst.Consts = map[string]eval.Value{}
			for _, k := range a.Consts {
				if k.Body != nil {
					continue
				}
				v, err := e.Constant(k)
				if err != nil {
					t.Fatal(err)
				}
				if inst.Consts[k.Name], err = d.Value(v); err != nil {
					t.Fatal(err)
				}
			}
			r.Model.Close()
			m, err := eval.NewMachine(a, inst)
			if err != nil {
				t.Fatalf("%s.%s: %v (instance %s)", a.Name, act.Name, err, inst)
			}
			got, ok, err := m.Step(act, s, params)
			if err != nil {
				t.Fatalf("%s.%s: replay: %v", a.Name, act.Name, err)
			}
			if !ok {
				t.Errorf("%s.%s: the model's step %s is not enabled in the evaluator from %s (instance %s)", a.Name, act.Name, m.FormatAction(act, params), s.Format(a), inst)
				continue
			}
			if !got.Equal(want) {
				t.Errorf("%s.%s: post-states differ:\nevaluator %s\nmodel     %s", a.Name, act.Name, got.Format(a), want.Format(a))
			}
		}
	}
}

func TestUnknownOnTinyRLimit(t *testing.T) {
	a := loadAutomaton(t, "../../specs/TMS2.yaml", "TMS2")
	p := invStep(t, a, a.Action("DoCommitWriter"), a.Invariant("readRespValue"))
	ss := newSession(t)
	r, err := ss.Check(context.Background(), p, Config{RLimit: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Unknown || r.Reason == "" {
		t.Errorf("rlimit 10: %s (%q)", r.Status, r.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ss.Check(ctx, p, cfg); err == nil {
		t.Errorf("a cancelled context did not stop the check")
	}
}

func ExampleStatus() {
	fmt.Println(Sat, Unsat, Unknown)
	// Output: sat unsat unknown
}

// TestCoreScript checks the unsat core of a problem's text: the indices
// of the problem's assertions the refutation used, also when the text
// defines a hoisted constant array before them (that definition is not
// tracked), and none for a sat problem.
func TestCoreScript(t *testing.T) {
	x := logic.Const("x", logic.IntSort())
	y := logic.Const("y", logic.IntSort())
	arr := logic.ConstArray(logic.IntSort(), x) // hoisted: x is not a value
	p := &logic.Problem{Assertions: []logic.Named{
		{Name: "y positive", Term: logic.Gt(y, logic.IntVal(0))},
		{Name: "goal", Term: logic.Not(logic.Eq(logic.Select(arr, logic.IntVal(0)), x))},
		{Name: "y small", Term: logic.Lt(y, logic.IntVal(5))},
	}}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "is a constant array") {
		t.Fatalf("the constant array is not hoisted:\n%s", text)
	}
	for _, simple := range []bool{false, true} {
		r, core, err := CoreScript(context.Background(), text, len(p.Assertions), Config{RLimit: 1_000_000, Simple: simple})
		if err != nil || r.Status != Unsat || fmt.Sprint(core) != "[1]" {
			t.Errorf("simple=%v: %v, core %v, %v; want unsat with core [1]", simple, r, core, err)
		}
	}
	sat := &logic.Problem{Assertions: p.Assertions[:1]}
	text, err = sat.Text()
	if err != nil {
		t.Fatal(err)
	}
	if r, core, err := CoreScript(context.Background(), text, 1, Config{RLimit: 1_000_000}); err != nil || r.Status != Sat || core != nil {
		t.Errorf("sat problem: %v, core %v, %v", r, core, err)
	}
	if _, _, err := CoreScript(context.Background(), text, 2, Config{RLimit: 1_000_000}); err == nil {
		t.Errorf("a text with fewer assertions than the problem: no error")
	}
}
