// This file implements the cross-check of history mappings: the abstract
// automaton A (C with history variables) is explored, and the combined
// rule (LV95 §5) is checked at every reachable abstract state and step.

package crosscheck

import (
	"fmt"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/simulation"
)

// history cross-checks a history mapping: the start conditions, then
// the rule at every reachable state and step of A.
func (x *checker) history() error {
	if err := x.historyStart(); err != nil {
		return err
	}
	return x.search(true, x.historyState, x.historyStep)
}

// historyStart checks start › init and start › mapping, for every start
// state of C.
func (x *checker) historyStart() error {
	p := x.p
	inits, err := x.mC.Init()
	if err != nil {
		return err
	}
	for _, c := range inits {
		fail := func(clause, msg string, details []string, states []NamedState) error {
			x.failure = &Failure{Obligation: join(x.group, "start", clause), Clause: "start › " + clause, Message: msg, Details: details,
				Trace: newTrace(x.mC, c), States: states}
			return errFailed
		}
		// The verdict is the rules' (start › init, start › mapping), and
		// so are why a₀ is not a start state and f(a₀).
		v, err := x.firstFailing(map[string]eval.State{"c": c}, nil, x.plansOf(simulation.ClauseStart, "init", "mapping"))
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		a0s := named("a₀", p.Abstract, v.State("a₀"), "", nil)
		if v.Plan.Name == "init" {
			return fail("init", fmt.Sprintf("the start witness a₀ of the start state c of %s is not a start state of %s: %s", p.Concrete.Name, p.Abstract.Name, v.Why), nil, []NamedState{a0s})
		}
		fa0 := v.State("f(a₀)") // as the rules computed it
		first, ds := diffs(p.Concrete, "f(a₀)", fa0, "c", c)
		return fail("mapping", fmt.Sprintf("f(a₀) = c is false: f(a₀).%s differs", first), ds, []NamedState{a0s, named("f(a₀)", p.Concrete, fa0, "", nil)})
	}
	return nil
}

// historyState checks state a of A: the start condition of f(a) when a
// is a start state, the invariants assumed of f(a), and the guard from
// C's side (every step f(a) enables, a enables).
func (x *checker) historyState(id int, root, _ bool, a eval.State) error {
	p := x.p
	fa, err := x.stateOf(x.mapping, &env{a: a})
	if err != nil {
		return err
	}
	if root {
		v, err := x.firstFailing(map[string]eval.State{"a": a}, nil, x.plansOf(simulation.ClauseStart, "refinement"))
		if err != nil {
			return err
		}
		if v != nil {
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			x.failure = &Failure{Obligation: join(x.group, "start", "refinement"), Clause: "start › refinement", Trace: tr,
				Message: fmt.Sprintf("f(a) is not a start state of %s for the start state a of %s: %s", p.Concrete.Name, p.Abstract.Name, v.Why),
				States:  []NamedState{named("f(a)", p.Concrete, fa, "", nil)}}
			return errFailed
		}
	}
	name, err := x.violated(false, fa)
	if err != nil {
		return err
	}
	if name != "" {
		return x.assumeFailure(id, p.Concrete, name, "f(a)", fa)
	}
	// guard, from C's side: every step f(a) enables, a enables.
	var bad *ioa.Action
	var badParams []eval.Value
	var stepErr error
	// (the verdict of the rule's guard clause at (a, p))
	pt := map[string]eval.State{"a": a}
	err = x.rC.Successors(fa, func(act int, params []eval.Value, post eval.State) bool {
		ca := p.Concrete.Actions[act]
		var v *simulation.Verdict
		v, stepErr = x.firstFailing(pt, params, x.actionPlans(ca, simulation.ClauseGuard),
			simulation.StepSeed{Action: ca, From: fa, Params: params, Post: post})
		if stepErr != nil || v != nil {
			bad, badParams = ca, append([]eval.Value(nil), params...)
			return false
		}
		return true
	})
	if err == nil {
		err = stepErr
	}
	if err != nil {
		return err
	}
	if bad != nil {
		tr, _, err := x.traceOf(id)
		if err != nil {
			return err
		}
		step := x.mC.FormatAction(bad, badParams)
		f := &Failure{Obligation: join(x.group, bad.Name, "guard"), Clause: "guard", Action: bad.Name, Step: step, Trace: tr,
			Message: fmt.Sprintf("%s is enabled in f(a) (in %s) but not in the last state a (in %s)", step, p.Concrete.Name, p.Abstract.Name),
			States:  []NamedState{named("f(a)", p.Concrete, fa, "", nil)}}
		if aa := p.Abstract.Action(bad.Name); aa != nil {
			f.Details = whyDisabled(x.mA, aa, a, badParams)
		}
		x.failure = f
		return errFailed
	}
	return nil
}

// historyStep checks the step tr of A: guard, commute and event.
func (x *checker) historyStep(tr *explore.Transition) error {
	p := x.p
	x.res.Checks++
	aa := tr.Action
	ca := p.Concrete.Action(aa.Name)
	if ca == nil {
		return fmt.Errorf("%s has no action %s", p.Concrete.Name, aa.Name)
	}
	// The verdict is the rules' (guard, commute, event), and so are
	// the states that explain it.
	v, err := x.firstFailing(map[string]eval.State{"a": tr.Pre}, tr.Params, x.histPlans(ca),
		simulation.StepSeed{Action: aa, From: tr.Pre, Params: tr.Params, Post: tr.Post})
	if err != nil || v == nil {
		return err
	}
	step := x.mA.FormatAction(aa, tr.Params)
	fail := func(clause, msg string, details []string, states []NamedState) error {
		trace, _, err := x.traceOf(tr.From)
		if err != nil {
			return err
		}
		if err := addStep(trace, x.mA, aa, tr.Params, tr.Post); err != nil {
			return err
		}
		x.failure = &Failure{Obligation: join(x.group, aa.Name, clause), Clause: clause, Action: aa.Name, Step: step,
			Message: msg, Details: details, Trace: trace, States: states}
		return errFailed
	}
	// f(a), cpost = Post_C(f(a), p) and f(apost) as the rules computed them
	fa := v.State("f(a)")
	switch v.Plan.Clause {
	case simulation.ClauseGuard:
		// a enables the step (tr is one): f(a) does not
		return fail("guard", fmt.Sprintf("%s is enabled in a (in %s) but not in f(a) (in %s)", step, p.Abstract.Name, p.Concrete.Name),
			whyDisabled(x.mC, ca, fa, tr.Params), []NamedState{named("f(a)", p.Concrete, fa, "", nil)})
	case simulation.ClauseCommute:
		cpost, fpost := v.State("cpost"), v.State("f(apost)")
		first, ds := diffs(p.Concrete, "f(apost)", fpost, "cpost", cpost)
		return fail("commute", fmt.Sprintf("f(Post_A(a, p)) = Post_C(f(a), p) is false: they differ in %s", first), ds,
			[]NamedState{named("f(a)", p.Concrete, fa, "", nil), named("cpost", p.Concrete, cpost, "f(a)", fa), named("f(apost)", p.Concrete, fpost, "f(a)", fa)})
	}
	// the event: the rules found the arguments the two show different
	ce, err := x.mC.FormatEvent(ca, tr.Params)
	if err != nil {
		return err
	}
	ae, err := x.mA.FormatEvent(aa, tr.Params)
	if err != nil {
		return err
	}
	return fail(v.Plan.Name, fmt.Sprintf("%s shows %s in %s but %s in %s", step, ce, p.Concrete.Name, ae, p.Abstract.Name), nil, nil)
}

// histPlans returns the guard, commute and event plans of concrete
// action act of a history mapping, in Generate's order.
func (x *checker) histPlans(act *ioa.Action) []*simulation.PointPlan {
	if ps, ok := x.hist[act]; ok {
		return ps
	}
	if x.hist == nil {
		x.hist = map[*ioa.Action][]*simulation.PointPlan{}
	}
	ps := x.rules.StepPlans(act)
	x.hist[act] = ps
	return ps
}
