// This file asks package simulation for every verdict: the obligations of
// the edge, evaluated at the point of a concrete step by the rules that
// also build the solver's problems (simulation.PointChecker). The rest of
// the package searches for the points and explains a failure; it does not
// decide one.

package crosscheck

import (
	"fmt"
	"strings"

	"ladder/internal/explore"
	"ladder/ioa/eval"
	"ladder/simulation"
)

// stepVerdict evaluates the obligations about the concrete step tr at
// the point (c = tr.Pre, a, p = tr.Params), in Generate's order: the case
// coverage, then the obligations of the first case whose guards select
// it. It returns that case (-1 when none does), the first obligation that
// fails (nil when none does), and u_m, the abstract state the case's
// steps end in (nil when no evaluated obligation ran them all).
func (x *checker) stepVerdict(tr *explore.Transition, a eval.State) (int, *simulation.Verdict, eval.State, error) {
	x.rules.Reset()
	pt := &simulation.Point{States: map[string]eval.State{"c": tr.Pre, "a": a}, Params: tr.Params}
	k, skip := -1, -1
	var um eval.State
	for _, pl := range x.rules.StepPlans(tr.Action) {
		cases := pl.Clause == simulation.ClauseCases
		if !cases && (pl.Case == skip || (k >= 0 && pl.Case != k)) {
			continue
		}
		v, err := x.rules.Eval(pl, pt)
		if err != nil {
			return -1, nil, nil, err
		}
		if !cases && strings.HasPrefix(v.Vacuous, "case ") {
			skip = pl.Case // the guards do not select this case
			continue
		}
		if !cases {
			k = pl.Case
		}
		if !v.Holds {
			return k, &v, nil, nil
		}
		if um == nil && v.Vacuous == "" && ranAll(pl) {
			um = x.lastState(pl, &v, a)
		}
	}
	return k, nil, um, nil
}

// ranAll reports whether the rule of pl runs every abstract step of its
// case (relation, post and event clauses of a forward or refinement
// step).
func ranAll(pl *simulation.PointPlan) bool {
	switch pl.Clause {
	case simulation.ClauseRelation, simulation.ClausePost, simulation.ClauseEvent:
		return true
	}
	return false
}

// lastState returns u_m of the case of pl from a verdict that ran it: the
// state named u_m, or u_0 (the point's a, or f(c) for refinements) when
// the case takes no step.
func (x *checker) lastState(pl *simulation.PointPlan, v *simulation.Verdict, a eval.State) eval.State {
	if m := pl.CaseSteps; m > 0 {
		return v.State(fmt.Sprintf("u%d", m))
	}
	if x.p.Kind.IsRefinement() {
		return v.State("a")
	}
	return a
}
