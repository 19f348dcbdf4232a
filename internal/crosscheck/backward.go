// This file implements the cross-check of backward simulations: the
// concrete automaton is explored, totality is checked in every reachable
// state, and every step is checked for each candidate abstract post-state.

package crosscheck

import (
	"fmt"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/simulation"
)

// backward cross-checks a backward simulation.
func (x *checker) backward() error {
	p := x.p
	cs, err := x.newCandidates()
	if err != nil {
		return err
	}
	x.totality = x.plansOf(simulation.ClauseTotality)
	// Every verdict is read before the next point starts, and a failure
	// copies the states it shows (named): the rules may compute in
	// scratch memory that each point reuses.
	x.rules.UseScratch()
	if !x.cfg.evalRelation {
		// the pairs each names (a step's post-state and a candidate)
		x.related = func(c, a eval.State) bool {
			return sameState(c, x.known[0]) && sameState(a, x.known[1]) || cs.relatedToPre(x, c, a)
		}
	}
	return x.searchConcrete(func(id int, root, vouched bool, c eval.State) error {
		// Totality: the verdict is the rules', and τ(c) the state they
		// computed. A step that found R(c, τ(c)) true (each) vouches
		// for it.
		var v *simulation.Verdict
		if !vouched {
			var err error
			if v, err = x.firstFailing(map[string]eval.State{"c": c}, nil, x.totality); err != nil {
				return err
			}
		}
		if v != nil {
			tau := v.State("τ(c)") // as the rules computed it
			name := v.Plan.Name
			bad, err := x.failedClauses(&env{c: c, a: tau})
			if err != nil {
				return err
			}
			var details []string
			if len(bad) > 0 && bad[0] == name {
				details = x.clauseDetailsIn(bad, &env{c: c, a: tau})
			}
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			x.failure = &Failure{Obligation: v.Plan.ID, Clause: "totality › " + name, Trace: tr,
				Message: fmt.Sprintf("%s(c, τ(c)) is false in the last state c: the totality witness is not related to it", name),
				Details: details, States: []NamedState{named("τ(c)", p.Abstract, tau, "", nil)}}
			return errFailed
		}
		if !root {
			return nil
		}
		return cs.each(x, c, func(a eval.State, i int) error {
			v, err := x.firstFailing(map[string]eval.State{"c": c, "a": a}, nil, x.plansOf(simulation.ClauseStart))
			if err != nil || v == nil {
				return err
			}
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			name := "τ(c)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to c", i, p.Abstract.Name)
			}
			x.failure = &Failure{Obligation: join(x.group, "start"), Clause: "start", Trace: tr,
				Message: fmt.Sprintf("R(c, a) holds at the start state c but a (%s) is not a start state of %s: %s", name, p.Abstract.Name, v.Why),
				States:  []NamedState{named("a", p.Abstract, a, "", nil)}}
			return errFailed
		})
	}, func(tr *explore.Transition) error {
		cs.nodeStart(x, tr.From)
		return cs.each(x, tr.Post, func(a eval.State, i int) error {
			name := "τ(cpost)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to cpost", i, p.Abstract.Name)
			}
			return x.backwardStep(tr, a, name)
		})
	})
}

// backwardStep checks the concrete step tr against the abstract
// post-state a (described by aName). The verdicts are the rules'
// (stepVerdict), and so is the explanation of a failure: the case's
// pre-state witness apre and abstract steps as the rules computed them
// (simulation.Verdict.Run).
func (x *checker) backwardStep(tr *explore.Transition, a eval.State, aName string) error {
	p := x.p
	sm := x.steps[tr.Action]
	if sm == nil {
		return fmt.Errorf("no step correspondence for %s", tr.Action.Name)
	}
	x.res.Checks++
	if x.nodeOf != nil && x.pre.id != tr.From {
		// a worker's step from node tr.From, whose state tr.Pre is
		x.pre = preNode{id: tr.From, s: tr.Pre}
	}
	aState := func() NamedState {
		ns := named("a", p.Abstract, a, "", nil)
		ns.Name = "a = " + aName
		return ns
	}
	k, v, _, err := x.stepVerdict(tr, a)
	if err != nil {
		return err
	}
	if v != nil && v.Plan.Clause == simulation.ClauseCases {
		return x.verdictFailure(tr, sm, v, -1, "no case's guard holds", nil, []NamedState{aState()}, nil)
	}
	if k < 0 {
		return fmt.Errorf("internal error: no case of %s was evaluated", tr.Action.Name)
	}
	x.countCase(tr.Action, k)
	if v == nil {
		return nil
	}
	r := v.Run
	if r == nil {
		return fmt.Errorf("internal error: the rules did not record the abstract steps of %s", v.Plan.ID)
	}
	apre := r.States[0]
	states := func(steps bool) []NamedState {
		out := []NamedState{aState(), named("apre", p.Abstract, apre, "a", a)}
		if steps {
			out = append(out, x.runStates("apre", r)[1:]...)
		}
		return out
	}
	switch v.Plan.Clause {
	case simulation.ClauseRelation:
		bad, err := x.failedClauses(&env{c: tr.Pre, a: apre})
		if err != nil {
			return err
		}
		return x.verdictFailure(tr, sm, v, k,
			fmt.Sprintf("%s(c, apre) is false: the pre-state witness is not related to the concrete pre-state", clauseArg(v.Plan.Name)),
			x.clauseDetailsIn(bad, &env{c: tr.Pre, a: apre}), states(false), nil)
	case simulation.ClausePre:
		j := v.Plan.Index
		return x.verdictFailure(tr, sm, v, k,
			fmt.Sprintf("the abstract step %s is not enabled in %s", x.call(r, j), uName("apre", j)),
			whyDisabled(x.mA, r.Steps[j].Action, r.States[j], r.Args[j]), states(true), x.calls(r))
	case simulation.ClausePost:
		m := len(r.States) - 1
		_, ds := diffs(p.Abstract, fmt.Sprintf("u%d", m), r.States[m], "a", a)
		first := clauseArg(v.Plan.Name)
		return x.verdictFailure(tr, sm, v, k,
			fmt.Sprintf("u%d.%s = a.%s is false: the abstract steps from apre do not end in the abstract post-state a", m, first, first),
			ds, states(true), x.calls(r))
	}
	msg, err := x.eventCheck(tr.Action, tr.Params, r)
	if err != nil {
		return err
	}
	if msg == "" { // the events differ in the values the rules compare
		msg = v.What + " is false"
	}
	return x.verdictFailure(tr, sm, v, k, msg, nil, states(true), x.calls(r))
}

// clauseArg returns the argument of a step clause's name, e.g. R of
// "relation(R)".
func clauseArg(name string) string {
	c, err := ioa.ParseStepClause(name)
	if err != nil {
		return name
	}
	return c.Arg
}
