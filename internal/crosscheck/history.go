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

// history cross-checks a history mapping.
func (x *checker) history() error {
	p := x.p
	// start › init and start › mapping, for every start state of C.
	inits, err := x.mC.Init()
	if err != nil {
		return err
	}
	for _, c := range inits {
		a0, err := x.stateOf(x.start, &env{c: c})
		if err != nil {
			return err
		}
		fail := func(clause, msg string, details []string, states []NamedState) error {
			x.failure = &Failure{Obligation: join(x.group, "start", clause), Clause: "start › " + clause, Message: msg, Details: details,
				Trace: newTrace(x.mC, c), States: states}
			return errFailed
		}
		a0s := named("a₀", p.Abstract, a0, "", nil)
		// The verdict is the rules' (start › init, start › mapping); the
		// explanation is this package's.
		v, err := x.firstFailing(map[string]eval.State{"c": c}, nil, x.plansOf(simulation.ClauseStart, "init", "mapping"))
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		why, err := x.initA.why(a0)
		if err != nil {
			return err
		}
		if v.Plan.Name == "init" {
			if why == "" {
				why = "(the cross-checker's own evaluation finds it one)"
			}
			return fail("init", fmt.Sprintf("the start witness a₀ of the start state c of %s is not a start state of %s: %s", p.Concrete.Name, p.Abstract.Name, why), nil, []NamedState{a0s})
		}
		fa0, err := x.stateOf(x.mapping, &env{a: a0})
		if err != nil {
			return err
		}
		first, ds := diffs(p.Concrete, "f(a₀)", fa0, "c", c)
		return fail("mapping", fmt.Sprintf("f(a₀) = c is false: f(a₀).%s differs", first), ds, []NamedState{a0s, named("f(a₀)", p.Concrete, fa0, "", nil)})
	}
	// The rule at every reachable state and step of A.
	return x.search(true, func(id int, root, _ bool, a eval.State) error {
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
				why, err := x.initC.why(fa)
				if err != nil {
					return err
				}
				if why == "" {
					why = "(the cross-checker's own evaluation finds it one)"
				}
				tr, _, err := x.traceOf(id)
				if err != nil {
					return err
				}
				x.failure = &Failure{Obligation: join(x.group, "start", "refinement"), Clause: "start › refinement", Trace: tr,
					Message: fmt.Sprintf("f(a) is not a start state of %s for the start state a of %s: %s", p.Concrete.Name, p.Abstract.Name, why),
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
	}, func(tr *explore.Transition) error {
		x.res.Checks++
		aa := tr.Action
		ca := p.Concrete.Action(aa.Name)
		if ca == nil {
			return fmt.Errorf("%s has no action %s", p.Concrete.Name, aa.Name)
		}
		// The verdict is the rules' (guard, commute, event); the
		// explanation is this package's.
		v, err := x.firstFailing(map[string]eval.State{"a": tr.Pre}, tr.Params, x.histPlans(ca),
			simulation.StepSeed{Action: aa, From: tr.Pre, Params: tr.Params, Post: tr.Post})
		if err != nil || v == nil {
			return err
		}
		fa, err := x.stateOf(x.mapping, &env{a: tr.Pre})
		if err != nil {
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
		fas := named("f(a)", p.Concrete, fa, "", nil)
		cpost, ok, err := x.mC.Step(ca, fa, tr.Params)
		if err != nil {
			return err
		}
		if v.Plan.Clause == simulation.ClauseGuard {
			if ok {
				return fail("guard", v.What+" is false by the rules of the prover, but the cross-checker's own evaluation, which explains failures, finds it true", nil, []NamedState{fas})
			}
			return fail("guard", fmt.Sprintf("%s is enabled in a (in %s) but not in f(a) (in %s)", step, p.Abstract.Name, p.Concrete.Name),
				whyDisabled(x.mC, ca, fa, tr.Params), []NamedState{fas})
		}
		fpost, err := x.stateOf(x.mapping, &env{a: tr.Post})
		if err != nil {
			return err
		}
		if first, ds := diffs(p.Concrete, "f(apost)", fpost, "cpost", cpost); v.Plan.Clause == simulation.ClauseCommute {
			return fail("commute", fmt.Sprintf("f(Post_A(a, p)) = Post_C(f(a), p) is false: they differ in %s", first), ds,
				[]NamedState{fas, named("cpost", p.Concrete, cpost, "f(a)", fa), named("f(apost)", p.Concrete, fpost, "f(a)", fa)})
		}
		if ca.Kind.External() {
			cn, cargs, err := x.mC.ViewEvent(ca, tr.Params)
			if err != nil {
				return err
			}
			an, aargs, err := x.mA.ViewEvent(aa, tr.Params)
			if err != nil {
				return err
			}
			same := cn == an && len(cargs) == len(aargs)
			for i := 0; same && i < len(cargs); i++ {
				same = cargs[i].Equal(aargs[i])
			}
			if !same {
				ce, _ := x.mC.FormatEvent(ca, tr.Params)
				ae, _ := x.mA.FormatEvent(aa, tr.Params)
				return fail("event", fmt.Sprintf("%s shows %s in %s but %s in %s", step, ce, p.Concrete.Name, ae, p.Abstract.Name), nil, nil)
			}
		}
		return fail(v.Plan.Name, v.What+" is false by the rules of the prover, but the cross-checker's own evaluation, which explains failures, finds it true", nil, nil)
	})
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
