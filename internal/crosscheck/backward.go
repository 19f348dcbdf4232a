// This file implements the cross-check of backward simulations: the
// concrete automaton is explored, totality is checked in every reachable
// state, and every step is checked for each candidate abstract post-state.

package crosscheck

import (
	"fmt"

	"ladder/internal/explore"
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
		// Totality: the verdict is the rules', the explanation this
		// package's. A step that found R(c, τ(c)) true (each) vouches
		// for it.
		var v *simulation.Verdict
		if !vouched {
			var err error
			if v, err = x.firstFailing(map[string]eval.State{"c": c}, nil, x.totality); err != nil {
				return err
			}
		}
		if v != nil {
			tau, err := x.stateOf(x.total, &env{c: c})
			if err != nil {
				return err
			}
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
			why, err := x.initA.why(a)
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
			name := "τ(c)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to c", i, p.Abstract.Name)
			}
			x.failure = &Failure{Obligation: join(x.group, "start"), Clause: "start", Trace: tr,
				Message: fmt.Sprintf("R(c, a) holds at the start state c but a (%s) is not a start state of %s: %s", name, p.Abstract.Name, why),
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
// post-state a (described by aName).
func (x *checker) backwardStep(tr *explore.Transition, a eval.State, aName string) error {
	p := x.p
	sc := x.steps[tr.Action]
	if sc == nil {
		return fmt.Errorf("no step correspondence for %s", tr.Action.Name)
	}
	x.res.Checks++
	if x.nodeOf != nil && x.pre.id != tr.From {
		// a worker's step from node tr.From, whose state tr.Pre is
		x.pre = preNode{id: tr.From, s: tr.Pre}
	}
	base := &env{c: tr.Pre, a: a, cpost: tr.Post, params: tr.Params}
	envs := make([]*env, len(sc.cases))
	envFor := func(k int) (*env, error) {
		if envs[k] != nil {
			return envs[k], nil
		}
		e := *base
		e.apre = a
		if pre := sc.cases[k].pre; pre != nil {
			apre, err := x.stateOf(pre, base)
			if err != nil {
				return nil, err
			}
			e.apre = apre
		}
		envs[k] = &e
		return &e, nil
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
		return x.verdictFailure(tr, sc, v, -1, "no case's guard holds", nil, []NamedState{aState()}, nil)
	}
	if k < 0 {
		return fmt.Errorf("internal error: no case of %s was evaluated", tr.Action.Name)
	}
	x.countCase(tr.Action, k)
	if v == nil {
		return nil
	}
	// The explanation: the case's witness and abstract steps.
	cc := sc.cases[k]
	e, err := envFor(k)
	if err != nil {
		return err
	}
	states := func(r *run) []NamedState {
		out := []NamedState{aState(), named("apre", p.Abstract, e.apre, "a", a)}
		if r != nil {
			out = append(out, x.runStates("apre", r)[1:]...)
		}
		return out
	}
	if v.Plan.Clause == simulation.ClauseRelation {
		bad, err := x.failedClauses(&env{c: tr.Pre, a: e.apre})
		if err != nil {
			return err
		}
		if len(bad) == 0 {
			return x.unexplained(tr, sc, v, k, states(nil), nil)
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("%s(c, apre) is false: the pre-state witness is not related to the concrete pre-state", bad[0]),
			x.clauseDetailsIn(bad, &env{c: tr.Pre, a: e.apre}), states(nil), nil)
	}
	r, err := x.runSteps(cc, e.apre, e)
	if err != nil {
		return err
	}
	switch v.Plan.Clause {
	case simulation.ClausePre:
		j := v.Plan.Index
		if r.fail != j {
			return x.unexplained(tr, sc, v, k, states(r), x.calls(r))
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("the abstract step %s is not enabled in %s", x.call(r, j), uName("apre", j)),
			whyDisabled(x.mA, cc.steps[j].s.Action, r.us[j], r.args[j]), states(r), x.calls(r))
	case simulation.ClausePost:
		m := len(r.us) - 1
		first, ds := diffs(p.Abstract, fmt.Sprintf("u%d", m), r.us[m], "a", a)
		if first == "" {
			return x.unexplained(tr, sc, v, k, states(r), x.calls(r))
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("u%d.%s = a.%s is false: the abstract steps from apre do not end in the abstract post-state a", m, first, first),
			ds, states(r), x.calls(r))
	}
	msg, err := x.eventCheck(tr.Action, tr.Params, cc, r)
	if err != nil {
		return err
	}
	if msg == "" {
		msg = "the event arguments of the concrete and abstract steps differ"
	}
	return x.verdictFailure(tr, sc, v, k, msg, nil, states(r), x.calls(r))
}
