package simulation

import (
	"testing"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
)

// explorable reports whether p's automata have values in the evaluator
// (no map over Int, as POQueueProph's prediction).
func explorable(p *ioa.Proof) bool {
	return eval.RepresentableAutomaton(p.Concrete) == nil && eval.RepresentableAutomaton(p.Abstract) == nil
}

// TestStateMapPlan checks the concrete world's plan of a state map
// (fastEval.mapPlan), which copies a variable `o.v` from the state bound
// to o instead of evaluating it: on every state map of the repository's
// proofs (refinement mappings, start and totality witnesses, backward
// pre-state witnesses), at several reachable states of a small instance,
// the fast world gives the state the plain world (no fast evaluator, as
// in counterexample replay) evaluates entry by entry.
func TestStateMapPlan(t *testing.T) {
	set := loadRepository(t)
	inst, err := explore.ParseBounds("T=2,L=1,V=2")
	if err != nil {
		t.Fatal(err)
	}
	maps, copies := 0, 0
	for _, p := range set.Hierarchy.Proofs {
		if !explorable(p) {
			continue // POQueueProph's prediction, a map over Int
		}
		pc, err := NewPointChecker(p, inst)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		fast := pc.w
		plain := &conWorld{inst: fast.inst, states: map[string]eval.State{}, params: map[string][]eval.Value{},
			autos: map[*ioa.Automaton]*eval.Machine{}, owner: fast.owner, concrete: fast.concrete}
		cs := someStates(t, fast, p.Concrete)
		as := someStates(t, fast, p.Abstract)
		type use struct {
			m   *ioa.StateMap
			act *ioa.Action
		}
		uses := []use{{p.Mapping, nil}, {p.Start, nil}, {p.Total, nil}}
		for _, sm := range p.Steps {
			for _, k := range sm.Cases {
				uses = append(uses, use{k.Pre, sm.Action})
			}
		}
		for _, u := range uses {
			if u.m == nil {
				continue
			}
			maps++
			for i := range cs {
				c, cpost, a, apre := cs[i], cs[(i+1)%len(cs)], as[i%len(as)], as[(i+2)%len(as)]
				var ps []eval.Value
				if u.act != nil {
					for _, prm := range u.act.Params {
						if prm.Lo != nil { // a range: its low end is 0 in these proofs
							ps = append(ps, eval.Int(0))
							continue
						}
						vs, err := inst.Values(prm.Var.Sort)
						if err != nil || len(vs) == 0 {
							t.Fatalf("%s: parameter %s: %v", p.Name, prm.Var.Name, err)
						}
						ps = append(ps, vs[i%len(vs)])
					}
				}
				env := func(w *conWorld) *wenv[eval.State, eval.Value] {
					e := w.env(ps)
					for _, b := range []struct {
						o *expr.Object
						s eval.State
					}{{p.C, c}, {p.A, a}, {p.CPost, cpost}, {p.APre, apre}} {
						if b.o != nil {
							e.with(b.o, b.s)
						}
					}
					return e
				}
				got, err := fast.stateOf(u.m, "s", env(fast))
				if err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
				want, err := plain.stateOf(u.m, "s", env(plain))
				if err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
				if !got.Equal(want) {
					t.Fatalf("%s: a state map at %v: the fast world gives %v, the plain one %v", p.Name, c, got, want)
				}
			}
			pl, err := fast.fast.mapPlan(u.m, "s")
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range pl {
				if e.obj != nil {
					copies++
				}
			}
		}
	}
	t.Logf("%d state maps, %d variables copied", maps, copies)
	if copies == 0 {
		t.Error("no state map variable took the copy path")
	}
}

// someStates returns up to 12 reachable states of a, from its first start
// states and their successors.
func someStates(t *testing.T, w *conWorld, a *ioa.Automaton) []eval.State {
	t.Helper()
	m, err := w.machine(a)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Init()
	if err != nil || len(out) == 0 {
		t.Fatalf("%s: start states: %v", a.Name, err)
	}
	r := fast.NewRunner(m)
	for i := 0; i < len(out) && len(out) < 12; i++ {
		err := r.Successors(out[i], func(_ int, _ []eval.Value, post eval.State) bool {
			out = append(out, post.Clone())
			return len(out) < 12
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
